import Testing
@testable import FileSqueezerCore
import TestSupport

extension EndToEnd {
    /// A named temporary that a stopped run cannot remove (its folder was
    /// made read-only mid-run) is named on standard error on every way out,
    /// the forced exit included, and the summary does not deny it.
    /// chmod stops no root process, so as root the binary runs as nobody
    /// (`setpriv`), as in ``HostileTreeTests``' `leftoverNamed`.
    @Suite("End to end: a temporary the run cannot remove, on the way out")
    struct LeftoverTemporaryTests {
        static let runsAsNobody = geteuid() == 0
        static let possible = !runsAsNobody || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")

        /// A tree of a slow file and a small one, writable by nobody when
        /// the binary will run as nobody.
        static func tree(_ scratch: Scratch) throws -> String {
            try scratch.file("tree/big.txt", DuringRunTests.slowFile(megabytes: 8))
            try scratch.file("tree/small.txt", Sample.text(5_000))
            if runsAsNobody {
                for path in [scratch.path, scratch.path + "/tree"] { #expect(chmod(path, 0o777) == 0) }
                for name in ["big.txt", "small.txt"] { #expect(chmod(scratch.path + "/tree/" + name, 0o644) == 0) }
            }
            return scratch.path + "/tree"
        }

        static func start(_ folder: String, standardOutput: Any, standardError: FileHandle) throws -> Process {
            let process = Process()
            let arguments = ["--jobs", "2", "--level", "9", "--segment-kib", "1048576", folder]
            if runsAsNobody {
                process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
                process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", SqueezerProcess.binary.path] + arguments
            } else {
                process.executableURL = SqueezerProcess.binary
                process.arguments = arguments
            }
            process.environment = SqueezerProcess.environment([TemporaryOutput.forceNamedEnvironmentVariable: "1"])
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = standardOutput
            process.standardError = standardError
            try process.run()
            return process
        }

        /// Waits until big.txt's named temporary exists and small.txt is
        /// done (its line is the first the run writes to standard output).
        static func waitUntilMidRun(_ folder: String, _ process: Process) -> Bool {
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline, process.isRunning {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                if names.contains("small.txt.gz"), names.contains(where: { $0.hasPrefix(".squeeze-") }) { return true }
                usleep(2_000)
            }
            return false
        }

        static func leftovers(_ folder: String) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(".squeeze-") }
        }

        @Test("SIGINT with the folder made read-only: the temporary is named, and the summary says one is left",
              .enabled(if: Self.possible))
        func interruptedSummary() throws {
            let scratch = try Scratch()
            let folder = try Self.tree(scratch)
            let out = scratch.url.appendingPathComponent("stdout"), err = scratch.url.appendingPathComponent("stderr")
            _ = FileManager.default.createFile(atPath: out.path, contents: nil)
            _ = FileManager.default.createFile(atPath: err.path, contents: nil)
            let process = try Self.start(
                folder, standardOutput: try FileHandle(forWritingTo: out), standardError: try FileHandle(forWritingTo: err))
            #expect(Self.waitUntilMidRun(folder, process))
            #expect(chmod(folder, 0o555) == 0)
            defer { _ = chmod(folder, 0o755) }
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            let stdout = try String(contentsOf: out, encoding: .utf8), stderr = try String(contentsOf: err, encoding: .utf8)

            #expect(process.terminationStatus == 130, "stderr: \(stderr)")
            let left = try Self.leftovers(folder)
            #expect(left.count == 1, "stderr: \(stderr)")
            for name in left {
                #expect(stderr.contains("cannot remove this run's temporary file \(folder)/\(name)"), "stderr: \(stderr)")
            }
            #expect(stdout.contains("Interrupted by SIGINT:"), "stdout: \(stdout)")
            #expect(!stdout.contains("no temporary files left"), "stdout: \(stdout)")
            #expect(stdout.contains("; 1 temporary file left (named above)."), "stdout: \(stdout)")
        }

        /// The run cannot wind down: its standard output is a full pipe that
        /// nobody reads, so the main actor blocks writing small.txt's line.
        /// The stop then ends in the forced exit, 5 s after SIGINT.
        @Test("the forced exit after 5 s names the temporary it could not remove", .enabled(if: Self.possible))
        func forcedExit() throws {
            let scratch = try Scratch()
            let folder = try Self.tree(scratch)
            let pipe = Pipe()
            // Fill the pipe: writes of at most PIPE_BUF bytes are all or nothing.
            let writeEnd = pipe.fileHandleForWriting.fileDescriptor
            let flags = fcntl(writeEnd, F_GETFL)
            #expect(fcntl(writeEnd, F_SETFL, flags | O_NONBLOCK) == 0)
            let chunk = [UInt8](repeating: 0x2E, count: 512)
            while chunk.withUnsafeBytes({ write(writeEnd, $0.baseAddress, $0.count) }) > 0 {}
            #expect(fcntl(writeEnd, F_SETFL, flags) == 0)
            let err = scratch.url.appendingPathComponent("stderr")
            _ = FileManager.default.createFile(atPath: err.path, contents: nil)
            let process = try Self.start(folder, standardOutput: pipe, standardError: try FileHandle(forWritingTo: err))
            #expect(Self.waitUntilMidRun(folder, process))
            #expect(chmod(folder, 0o555) == 0)
            defer { _ = chmod(folder, 0o755) }
            let sentAt = ContinuousClock.now
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            let waited = ContinuousClock.now - sentAt
            let stderr = try String(contentsOf: err, encoding: .utf8)
            withExtendedLifetime(pipe) {}

            #expect(process.terminationStatus == 130, "stderr: \(stderr)")
            #expect(waited >= .seconds(4), "the run wound down by itself (\(waited)): no forced exit to test")
            let left = try Self.leftovers(folder)
            #expect(left.count == 1, "stderr: \(stderr)")
            for name in left {
                #expect(stderr.contains("cannot remove this run's temporary file \(folder)/\(name)"), "stderr: \(stderr)")
            }
        }
    }
}
