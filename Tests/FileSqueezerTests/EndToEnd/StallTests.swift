import Testing
@testable import FileSqueezerCore
import TestSupport

extension EndToEnd {
    /// The talk's lesson, measured by the main-actor heartbeat: compressing on
    /// the main actor freezes it for a whole file; the other stages do not.
    @Suite("End to end: main-actor stall per strategy")
    struct StallTests {
        /// "No freeze": the longest main-actor stall stays under this share of
        /// the longest file's time. Stage 1 freezes for more than 0.8 of it;
        /// the other stages take a few ms on a quiet machine, but a machine at
        /// load 10 once kept the main actor off the CPU for 0.62 of a file.
        static let noFreeze = 0.75

        func report(_ strategy: Strategy, jobs: Int, files: Int = 2, extra: [String] = []) throws -> RunReport {
            let scratch = try Scratch()
            // Files of a few hundred ms each at level 9 (more on a loaded machine).
            let data = DuringRunTests.slowFile(megabytes: 2)
            for file in 0..<files { try scratch.file("in/\(file).txt", data) }
            let run = try SqueezerProcess.run(
                ["--json", "--level", "9", "--jobs", String(jobs), "--strategy", strategy.rawValue] + extra + [scratch.path + "/in"],
                in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            return try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
        }

        @Test("main-actor: the stall is about as long as the longest file")
        func mainActor() throws {
            let report = try report(.mainActor, jobs: 2)
            let longestFile = report.files.map(\.seconds).max() ?? 0
            #expect(longestFile > 0.1)
            #expect(report.longestMainActorStallMilliseconds / 1000 > longestFile * 0.8)
            // Between files the main actor is free for a moment: the stall is
            // per file, not the whole run.
            #expect(report.longestMainActorStallMilliseconds / 1000 < report.wallSeconds * 0.9)
            #expect(report.parallelism < 1.05)
        }

        @Test("actor: no freeze (stall far below a file's time), no speedup (parallelism about 1)")
        func oneActor() throws {
            let report = try report(.actor, jobs: 2)
            let longestFile = report.files.map(\.seconds).max() ?? 0
            #expect(report.longestMainActorStallMilliseconds / 1000 < longestFile * Self.noFreeze)
            // One file at a time: the file times add up to at most the wall time.
            #expect(report.parallelism < 1.05)
        }

        @Test("parallel (deflate on BlockingExecutor lanes): no freeze, and files really overlap")
        func parallel() throws {
            let report = try report(.parallel, jobs: 2)
            #expect(report.placement == .lanes)
            let longestFile = report.files.map(\.seconds).max() ?? 0
            #expect(report.longestMainActorStallMilliseconds / 1000 < longestFile * Self.noFreeze)
            // Both lanes compress segments all the time (the two files' 1 MiB
            // segments, in turn), so the jobs' time on files adds up to about
            // twice the wall time. Overlap in wall time, not CPU time, which
            // other work on a busy machine takes away without the jobs
            // overlapping any less; `parallelism` is that overlap, capped
            // at one job per core (issue 39).
            let overlap = report.files.map(\.seconds).reduce(0, +) / report.wallSeconds
            #expect(overlap > 1.3, "files' time \(report.files.map(\.seconds)) in \(report.wallSeconds) s")
            #expect(report.parallelism > 1.3, "parallelism \(report.parallelism)")
        }

        @Test("parallel with deflate on the cooperative pool, as many jobs as cores: timers starve (the hazard)")
        func poolExhaustion() throws {
            // The pool is as wide as the processor count: fill every thread.
            let cores = ProcessInfo.processInfo.activeProcessorCount
            let report = try report(.parallel, jobs: cores, files: cores, extra: ["--deflate-on", "pool"])
            #expect(report.placement == .pool)
            // The heartbeat's wake-up needs a pool thread, and none is free until
            // a blocking job is done: a 1 MiB segment, half of each 2 MiB file.
            let shortestFile = report.files.map(\.seconds).min() ?? 0
            let segmentsPerFile = 2.0
            #expect(report.longestMainActorStallMilliseconds / 1000 > shortestFile / segmentsPerFile * 0.5)
        }
    }
}
