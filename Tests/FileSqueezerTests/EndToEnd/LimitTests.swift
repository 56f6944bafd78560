import Testing
import TestSupport

extension EndToEnd {
    /// More jobs than the machine or the open-file limit can carry: one note,
    /// fewer jobs, no crash, no file lost to `EMFILE`, Ctrl-C still prompt.
    @Suite("End to end: limits")
    struct LimitTests {
        static let cores = ProcessInfo.processInfo.activeProcessorCount

        /// "parallelism 1.93x" → 1.93.
        static func parallelism(_ stdout: String) -> Double? {
            stdout.firstMatch(of: /parallelism (\d+\.\d+)x/).flatMap { Double($0.1) }
        }

        @Test("--jobs 1024: one note, at most 4 jobs per core, Ctrl-C prompt, parallelism at most the core count")
        func tooManyJobs() throws {
            let scratch = try Scratch()
            for index in 0..<4 { try scratch.file("in/slow-\(index).txt", DuringRunTests.slowFile(megabytes: 8)) }
            let (process, out, err) = try SqueezerProcess.start(
                ["--jobs", "1024", "--level", "9", "--segment-kib", "64", scratch.path + "/in"], in: scratch)
            #expect(DuringRunTests.waitForTemporaryFile(in: scratch.path + "/in", process: process))
            usleep(300_000)  // well into the run: every job busy
            let sentAt = ContinuousClock.now
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            let reaction = ContinuousClock.now - sentAt
            let run = try SqueezerProcess.collect(process, out, err)

            #expect(run.status == 130, "stderr: \(run.stderr)")
            // Cancellation is polled per chunk; 1024 jobs took 10–17 s to stop.
            #expect(reaction < .seconds(5), "Ctrl-C took \(reaction)")
            let jobs = min(1024, 4 * Self.cores)
            let notes = run.stderr.split(separator: "\n").filter { $0.contains("instead of --jobs 1024") }
            #expect(notes == ["file-squeezer: using \(jobs) jobs instead of --jobs 1024: more than 4 per core (\(Self.cores) cores)"],
                    "stderr: \(run.stderr)")
            #expect(run.stdout.contains("\(jobs) jobs: parallelism"))
            #expect((Self.parallelism(run.stdout) ?? .infinity) <= Double(Self.cores), "stdout: \(run.stdout)")
        }

        @Test("parallelism counts at most one job per core: with 4 jobs per core, never above the core count")
        func honestParallelism() throws {
            let scratch = try Scratch()
            for index in 0..<3 { try scratch.file("in/slow-\(index).txt", DuringRunTests.slowFile(megabytes: 2)) }
            let jobs = 4 * Self.cores
            let run = try SqueezerProcess.run(["--jobs", "\(jobs)", "--segment-kib", "64", "--level", "9", scratch.path + "/in"], in: scratch)
            #expect(run.status == 0)
            // The segment times added up, uncapped, counted the time jobs
            // waited for a core: 6.35x on 2 cores.
            #expect((Self.parallelism(run.stdout) ?? .infinity) <= Double(Self.cores), "stdout: \(run.stdout)")
        }

        /// `ulimit -n` then the binary, through a shell.
        static func limited(_ descriptors: Int, _ arguments: [String], in scratch: Scratch) throws -> SqueezerRun {
            try SqueezerProcess.run(arguments, prefix: ["/bin/sh", "-c", "ulimit -n \(descriptors) && exec \"$0\" \"$@\""], in: scratch)
        }

        @Test("a low open-file limit: fewer jobs with one note, every file compressed, no crash",
              .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/sh")), .longRun,  // 20,000 files, twice
              arguments: [(16, 8), (64, 64)])
        func openFileLimit(_ descriptors: Int, _ jobs: Int) throws {
            let scratch = try Scratch()
            let folder = try scratch.folder("in")
            let count = 20_000
            for index in 0..<count {
                let path = folder + "/f\(index).txt"
                #expect(FileManager.default.createFile(atPath: path, contents: Data("file \(index)\n".utf8)))
            }
            let run = try Self.limited(descriptors, ["--jobs", "\(jobs)", "--output", scratch.path + "/out", folder], in: scratch)

            #expect(run.status == 0, "stderr: \(run.stderr.prefix(2000))")
            #expect(!run.stderr.contains("Too many open files"))
            let notes = run.stderr.split(separator: "\n").filter { $0.contains("ulimit -n") }
            #expect(notes.count == 1, "stderr: \(run.stderr.prefix(2000))")
            let written = try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/out")
            #expect(written.count == count)
            #expect(!written.contains { $0.contains(".squeeze-") })
        }
    }
}
