import Testing
@testable import FileSqueezerCore
import TestSupport

extension EndToEnd {
    /// `--detect-stalls` (and `--stats`, `--trace`, `--timeline`) start the
    /// toolkit's StallDetector for the run: the stalls it saw, the function
    /// that blocked, in the summary, in `--json` and in the trace.
    @Suite("End to end: the toolkit's stall detector")
    struct StallDetectorTests {
        /// ThreadSanitizer defers signals, so the detector takes no stacks
        /// there (Documentation/StallDetection.md): blame is not checked.
        static let takesStacks = !isRunningUnderThreadSanitizer

        /// `files` files of `megabytes` each that take a while at level 9
        /// (about 0.25 s per MB unloaded, in a debug build): a whole file
        /// blocks for far longer than the detector's 250 ms threshold.
        func folder(files: Int, megabytes: Int) throws -> Scratch {
            let scratch = try Scratch()
            let data = DuringRunTests.slowFile(megabytes: megabytes)
            for file in 0..<files { try scratch.file("in/\(file).txt", data) }
            return scratch
        }

        func jsonReport(_ arguments: [String], in scratch: Scratch) throws -> RunReport {
            let run = try SqueezerProcess.run(["--json", "--level", "9"] + arguments + [scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            return try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        }

        /// Whether `stall` names the app's compression code as the blocker:
        /// its innermost own frame is in Gzip/ (`ZlibStream.compress` nearly
        /// always), or in Writer/ or Files/ (a read or write between two
        /// deflate calls, at times).
        func blamesCompression(_ stall: RunStall) -> Bool {
            Self.namesCompression(stall.blockedIn)
        }

        static func namesCompression(_ text: String?) -> Bool {
            ["Gzip/", "Writer/", "Files/"].contains { text?.contains("Sources/FileSqueezerCore/" + $0) ?? false }
        }

        // Each test makes several stalls: on a loaded machine one stack
        // capture can time out (a thread not scheduled within 200 ms), and
        // that stall then has no backtrace; the summary names any that has.
        @Test("stage 1: the summary names the main-actor stall and the compression function that blocked")
        func mainActorText() throws {
            let scratch = try folder(files: 3, megabytes: 4)
            let run = try SqueezerProcess.run(
                ["--strategy", "main-actor", "--level", "9", "--detect-stalls", scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let lines = run.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains { $0.hasPrefix("Stalls of 250 ms or more: ") && !$0.hasSuffix("none") }, "\(run.stdout)")
            let mainActor = lines.first { $0.hasPrefix("  main actor: ") }
            #expect(mainActor != nil, "\(run.stdout)")
            if Self.takesStacks {
                #expect(mainActor?.contains("blocked in ") == true && Self.namesCompression(mainActor),
                        "\(run.stdout)")
            }
            // The reports went into the summary, not onto stderr.
            #expect(!run.stderr.contains("CONCURRENCY STALL"), "\(run.stderr)")
        }

        @Test("stage 1 with --json and --trace: the stall is in the report's stalls and in the trace")
        func mainActorJSONAndTrace() throws {
            let scratch = try folder(files: 3, megabytes: 4)
            let trace = scratch.path + "/run.json"
            let report = try jsonReport(["--strategy", "main-actor", "--trace", trace], in: scratch)
            let stalls = try #require(report.stalls, "--trace starts the detector")
            let mainActor = stalls.filter { $0.kind == "mainActorBlocked" }
            #expect(!mainActor.isEmpty, "\(stalls)")
            // Measured from the detector's probe to its run: within the run.
            #expect(mainActor.contains { $0.milliseconds >= 250 && $0.milliseconds <= report.wallSeconds * 1000 },
                    "\(mainActor) in \(report.wallSeconds) s")
            if Self.takesStacks {
                #expect(mainActor.contains(where: blamesCompression), "\(mainActor)")
                #expect(mainActor.contains { $0.backtrace.contains { $0.contains("compressOnMainActor") } })
            }
            let events = try JSONDecoder().decode(TraceTests.ChromeTrace.self, from: Data(contentsOf: URL(fileURLWithPath: trace)))
            let stallEvents = events.traceEvents.filter { $0.name.hasPrefix("the main actor ran no job") }
            #expect(!stallEvents.isEmpty, "the trace has the stall events")
        }

        @Test("stage 3 on the lanes: no stall of ours (the pool and the main actor stay free)")
        func parallelHasNone() throws {
            let scratch = try folder(files: 2, megabytes: 4)
            let report = try jsonReport(["--strategy", "parallel", "--jobs", "2", "--detect-stalls"], in: scratch)
            let stalls = try #require(report.stalls, "--detect-stalls starts the detector")
            // Unloaded, there is none at all. On a shared machine that does
            // not schedule the process for 250 ms there may be one, but it
            // cannot be the compression: that runs on the lanes' own threads.
            #expect(!stalls.contains { $0.backtrace.contains { $0.contains("ZlibStream") || $0.contains("Deflater") } },
                    "\(stalls)")
        }

        @Test("deflate on the pool, whole files, as many jobs as cores: a pool stall naming the compression")
        func poolExhaustion() throws {
            let cores = ProcessInfo.processInfo.activeProcessorCount
            let scratch = try folder(files: cores * 3, megabytes: 4)
            let report = try jsonReport(
                ["--strategy", "parallel", "--deflate-on", "pool", "--jobs", String(cores), "--segment-kib", "1048576",
                 "--detect-stalls"], in: scratch)
            let stalls = try #require(report.stalls)
            let pool = stalls.filter { $0.kind == "cooperativePoolBlocked" }
            #expect(pool.contains { $0.milliseconds >= 250 }, "\(stalls)")
            if Self.takesStacks {
                #expect(pool.contains(where: blamesCompression), "\(pool)")
            }
        }

        @Test("without --detect-stalls, --stats, --trace or --timeline the detector does not run")
        func offByDefault() throws {
            let scratch = try folder(files: 1, megabytes: 1)
            let report = try jsonReport(["--strategy", "main-actor"], in: scratch)
            #expect(report.stalls == nil)
            let run = try SqueezerProcess.run(["--quiet", scratch.path + "/in"], in: scratch)
            #expect(!run.stdout.contains("Stalls of"), "\(run.stdout)")
        }
    }
}
