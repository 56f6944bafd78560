import Testing
@testable import FileSqueezerCore
import TestSupport

extension EndToEnd {
    /// Where and how a `.gz` is put in place (issue 20): relative to the
    /// destination folder's descriptor, from an unnamed temporary or, as
    /// the fallback, a short named one.
    @Suite("End to end: putting outputs in place")
    struct OutputPlacementTests {
        /// The environments to run under: unnamed temporaries (`O_TMPFILE`), and the named fallback forced.
        static let temporaries: [[String: String]] = [[:], [TemporaryOutput.forceNamedEnvironmentVariable: "1"]]

        @Test("names of 237 to 252 bytes compress; a NAME.gz over 255 bytes fails saying exactly that", arguments: temporaries)
        func longNames(_ environment: [String: String]) throws {
            let scratch = try Scratch()
            let fits = [237, 245, 252].map { String(repeating: "n", count: $0) }
            let tooLong = String(repeating: "m", count: 253)
            for name in fits + [tooLong] { try scratch.file("in/" + name, Sample.text(2_000)) }
            let run = try SqueezerProcess.run([scratch.path + "/in"], environment: environment, in: scratch)
            #expect(run.status == 1)
            for name in fits {
                #expect(try runTool("/usr/bin/gzip", ["-dc", scratch.path + "/in/" + name + ".gz"]).output == Sample.text(2_000))
            }
            #expect(run.stderr.contains(
                "\(tooLong): cannot create \(scratch.path)/in/\(tooLong).gz: its name is 256 bytes, longer than the 255 a file name may have there"),
                "stderr: \(run.stderr)")
            #expect(try scratch.listing("in").count == 7)
        }

        @Test("--force replaces an existing .gz", arguments: temporaries)
        func force(_ environment: [String: String]) throws {
            let scratch = try Scratch()
            try scratch.file("in/a.txt", Sample.text(10_000))
            try scratch.file("in/a.txt.gz", Data("old".utf8))
            let run = try SqueezerProcess.run(["--force", scratch.path + "/in"], environment: environment, in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(try runTool("/usr/bin/gzip", ["-dc", scratch.path + "/in/a.txt.gz"]).output == Sample.text(10_000))
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/in").sorted() == ["a.txt", "a.txt.gz"])
        }

        @Test("a symbolic link planted under --output is refused, named; nothing is written through it", arguments: temporaries)
        func symlinkUnderOutput(_ environment: [String: String]) throws {
            let scratch = try Scratch()
            try scratch.file("in/sub/a.txt", Sample.text(3_000))
            try scratch.file("in/b.txt", Sample.text(3_000, seed: 5))
            _ = try scratch.folder("outside")
            _ = try scratch.folder("out")
            try FileManager.default.createSymbolicLink(atPath: scratch.path + "/out/sub", withDestinationPath: "../outside")
            let run = try SqueezerProcess.run(
                ["-r", "--output", scratch.path + "/out", scratch.path + "/in"], environment: environment, in: scratch)
            #expect(run.status == 1)
            #expect(run.stderr.contains(
                "sub/a.txt: \(scratch.path)/out/sub is a symbolic link, not a folder; nothing is written through it"),
                "stderr: \(run.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/outside").isEmpty)
            #expect(try runTool("/usr/bin/gzip", ["-dc", scratch.path + "/out/b.txt.gz"]).output == Sample.text(3_000, seed: 5))
        }

        @Test("Ctrl-C with --output -r removes the folders the run made and left empty", arguments: temporaries)
        func interruptRemovesEmptyFolders(_ environment: [String: String]) throws {
            let scratch = try Scratch()
            try scratch.file("in/a/b/slow.txt", DuringRunTests.slowFile(megabytes: 16))
            try scratch.file("in/c/later.txt", Sample.text(3_000))
            let (process, out, err) = try SqueezerProcess.start(
                ["--jobs", "1", "--level", "9", "-r", "--output", scratch.path + "/out/new", scratch.path + "/in"],
                environment: environment, in: scratch)
            #expect(DuringRunTests.waitForTemporaryFile(in: scratch.path + "/out/new/a/b", process: process))
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            let run = try SqueezerProcess.collect(process, out, err)
            #expect(run.status == 130, "stderr: \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: scratch.path + "/out"), "left: \((try? scratch.listing()) ?? [])")
        }
    }
}
