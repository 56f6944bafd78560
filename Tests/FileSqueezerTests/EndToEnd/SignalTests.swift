import Testing
@testable import FileSqueezerCore
import TestSupport

extension EndToEnd {
    /// Every signal that stops a run ends it the same way: work cancelled,
    /// temporary files removed, exit 128 + N (SIGINT's own test is
    /// ``DuringRunTests/interrupt(_:)``).
    @Suite("End to end: signals")
    struct SignalTests {
        static func temporaries(in folder: String) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".squeeze-") }
        }

        @Test("SIGTERM, SIGHUP and SIGQUIT mid-run: exit 128 + N, no temporary files, no crash report",
              arguments: [SIGTERM, SIGHUP, SIGQUIT])
        func stopSignal(_ signal: Int32) throws {
            let scratch = try Scratch()
            try scratch.file("in/a-small.txt", Sample.text(5_000))
            try scratch.file("in/b-slow.txt", DuringRunTests.slowFile(megabytes: 16))
            try scratch.file("in/c-slow.txt", DuringRunTests.slowFile(megabytes: 16))
            let before = try scratch.snapshot("in")
            let (process, out, err) = try SqueezerProcess.start(["--jobs", "2", "--level", "9", scratch.path + "/in"], in: scratch)
            #expect(DuringRunTests.waitForTemporaryFile(in: scratch.path + "/in", process: process))
            let sentAt = ContinuousClock.now
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            let reaction = ContinuousClock.now - sentAt
            let reason = process.terminationReason
            let run = try SqueezerProcess.collect(process, out, err)

            #expect(reason == .exit, "killed by signal \(run.status) instead of exiting")
            #expect(run.status == 128 + signal, "stderr: \(run.stderr)")
            #expect(run.stdout.contains("Interrupted by \(StopSignals.name(signal)):"))
            #expect(!run.stderr.contains("crashed"), "a false crash report: \(run.stderr)")
            #expect(reaction < .seconds(10))
            #expect(try Self.temporaries(in: scratch.path + "/in").isEmpty)
            #expect(try scratch.snapshot("in").filter { !$0.key.hasSuffix(".gz") } == before)
        }

        @Test("a closed pipe (`| head -1`) stops the run like SIGPIPE: exit 141, no temporary files",
              .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")))
        func closedPipe() throws {
            let scratch = try Scratch()
            // Whole files, two at a time: the first medium file's line ends
            // `head`; the next medium file's line, a few hundred ms later, is
            // written to the closed pipe while the big one is still
            // compressing. (Small files would not do: they are compressed in
            // one batch, and their lines can all reach the pipe before `head`
            // has exited.)
            try scratch.file("in/a-big.txt", DuringRunTests.slowFile(megabytes: 16))
            for name in ["b", "c", "d"] { try scratch.file("in/\(name)-medium.txt", DuringRunTests.slowFile(megabytes: 1)) }
            let script = "\"$0\" --jobs 2 --level 9 --segment-kib 65536 \"$1\" | head -1 >/dev/null; echo \"status=${PIPESTATUS[0]}\" >&2"
            let run = try SqueezerProcess.run([scratch.path + "/in"], prefix: ["/bin/bash", "-c", script], in: scratch)

            #expect(run.stderr.contains("status=141"), "stderr: \(run.stderr)")
            #expect(try Self.temporaries(in: scratch.path + "/in").isEmpty)
            #expect(!FileManager.default.fileExists(atPath: scratch.path + "/in/a-big.txt.gz"), "the run should have stopped")
        }

        /// The signals are blocked before any thread starts, so a SIGINT at
        /// any moment either kills the process before `main` (nothing was
        /// written yet) or stops the run with 130; it is never lost.
        ///
        /// Under ThreadSanitizer the binary is instrumented too and takes
        /// about a second to start, so the test makes one try per delay
        /// (21) instead of 200: the same moments, without ten minutes of
        /// process starts.
        @Test("an early Ctrl-C is never lost: 200 tries (21 under ThreadSanitizer), 0 to 20 ms after start")
        func earlyInterrupt() throws {
            let scratch = try Scratch()
            try scratch.file("in/a.txt", DuringRunTests.slowFile(megabytes: 4))
            try scratch.file("in/b.txt", DuringRunTests.slowFile(megabytes: 4))
            var outcomes: [String: Int] = [:]
            let tries = isRunningUnderThreadSanitizer ? 21 : 200
            for attempt in 0..<tries {
                let output = scratch.path + "/out-\(attempt)"
                let (process, out, err) = try SqueezerProcess.start(
                    ["--jobs", "1", "--level", "9", "--output", output, scratch.path + "/in"], in: scratch)
                usleep(UInt32(attempt % 21) * 1000)
                kill(process.processIdentifier, SIGINT)
                process.waitUntilExit()
                let reason = process.terminationReason
                let run = try SqueezerProcess.collect(process, out, err)
                let outcome = reason == .uncaughtSignal ? "killed by signal \(run.status)" : "exit \(run.status)"
                outcomes[outcome, default: 0] += 1
                let left = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
                #expect(!left.contains { $0.contains(".squeeze-") }, "attempt \(attempt): temporary files left: \(left)")
                try? FileManager.default.removeItem(atPath: output)
            }
            let allowed: Set = ["exit 130", "killed by signal \(SIGINT)"]
            #expect(Set(outcomes.keys).isSubset(of: allowed), "outcomes: \(outcomes)")
            #expect(outcomes["exit 130", default: 0] > 0, "no try reached main: \(outcomes)")
        }
    }
}
