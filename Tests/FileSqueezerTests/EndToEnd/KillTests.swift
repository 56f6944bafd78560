import Testing
@testable import FileSqueezerCore
import TestSupport

extension EndToEnd {
    /// `kill -9` cannot be handled: what a killed run leaves must be
    /// nothing (unnamed temporaries vanish with the process), or, with the
    /// named fallback, what the next run removes.
    @Suite("End to end: kill -9", .longRun)
    struct KillTests {
        /// Milliseconds after the first temporary appears; -1: 5 ms after start, before it.
        static let moments = [-1, 0, 20, 80, 200]

        /// Starts a run over in/ and kills it at `moment`.
        static func killedRun(_ scratch: Scratch, at moment: Int, environment: [String: String]) throws {
            let (process, out, err) = try SqueezerProcess.start(
                ["--jobs", "2", "--level", "9", "--segment-kib", "256", "-r", scratch.path + "/in"],
                environment: environment, in: scratch)
            if moment < 0 {
                usleep(5_000)
            } else {
                _ = DuringRunTests.waitForTemporaryFile(in: scratch.path + "/in", process: process)
                usleep(useconds_t(moment * 1000))
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            _ = try SqueezerProcess.collect(process, out, err)
        }

        static func makeTree(_ scratch: Scratch) throws -> [String: Data] {
            try scratch.file("in/a-slow.txt", DuringRunTests.slowFile(megabytes: 4))
            try scratch.file("in/b-slow.txt", DuringRunTests.slowFile(megabytes: 2))
            for index in 0..<20 { try scratch.file("in/sub/small-\(index).txt", Sample.text(30_000, seed: UInt64(index))) }
            return try scratch.snapshot("in")
        }

        /// Names under in/ that are neither an original nor a finished `.gz`.
        static func strays(_ scratch: Scratch, originals: [String: Data]) throws -> [String] {
            var strays: [String] = []
            for name in try scratch.listing("in") where originals[name] == nil {
                let tested = try runTool("/usr/bin/gzip", ["-t", scratch.path + "/in/" + name]).status
                if !name.hasSuffix(".gz") || tested != 0 { strays.append(name) }
            }
            return strays
        }

        @Test("killed at several moments with unnamed temporaries: nothing but originals and finished .gz files", arguments: moments)
        func unnamed(_ moment: Int) throws {
            let scratch = try Scratch()
            let originals = try Self.makeTree(scratch)
            try Self.killedRun(scratch, at: moment, environment: [:])
            #expect(try Self.strays(scratch, originals: originals) == [])
            #expect(try scratch.snapshot("in").filter { originals[$0.key] != nil } == originals)
        }
    
        @Test("killed at several moments with the named fallback: the next run removes what it left and says so",
              arguments: moments)
        func named(_ moment: Int) throws {
            let scratch = try Scratch()
            let originals = try Self.makeTree(scratch)
            try Self.killedRun(scratch, at: moment, environment: [TemporaryOutput.forceNamedEnvironmentVariable: "1"])
            let left = try Self.strays(scratch, originals: originals)
            #expect(left.allSatisfy { $0.split(separator: "/").last!.hasPrefix(".squeeze-") }, "\(left)")
            if moment == 0 { #expect(!left.isEmpty, "killed mid-file, the fallback leaves its temporary") }
            let next = try SqueezerProcess.run(["-r", "--level", "1", scratch.path + "/in"], in: scratch)
            if !left.isEmpty {
                let note = "removed \(left.count) temporary file\(left.count == 1 ? "" : "s") left by a run that was killed: "
                #expect(next.stderr.contains(note + left.joined(separator: ", ")), "stderr: \(next.stderr)")
            }
            #expect(try Self.strays(scratch, originals: originals) == [])
        }
    }
}
