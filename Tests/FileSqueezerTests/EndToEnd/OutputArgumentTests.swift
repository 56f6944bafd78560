import Testing
import TestSupport

extension EndToEnd {
    /// The `--output` argument: followed as given, like FOLDER; an output
    /// folder inside FOLDER that holds the user's files is named, not
    /// skipped in silence; one that cannot be a folder is one usage error.
    @Suite("End to end: the --output argument")
    struct OutputArgumentTests {
        @Test("-r -o FOLDER/sub FOLDER, sub already there with originals: named in a note, its files untouched")
        func existingOutputInside() throws {
            let scratch = try Scratch()
            try scratch.file("in/a.txt", Sample.text(2_000))
            try scratch.file("in/sub/kept.txt", Sample.text(2_000, seed: 3))
            let run = try SqueezerProcess.run(["-r", "-o", scratch.path + "/in/sub", scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.stderr.contains("file-squeezer: sub: is the --output folder - ignored\n"), "stderr: \(run.stderr)")
            #expect(try scratch.listing("in") == ["a.txt", "sub/a.txt.gz", "sub/kept.txt"])
        }

        @Test("-r -o FOLDER/new FOLDER, new made by the run: no note about it")
        func newOutputInside() throws {
            let scratch = try Scratch()
            try scratch.file("in/a.txt", Sample.text(2_000))
            let run = try SqueezerProcess.run(["-r", "-o", scratch.path + "/in/new", scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(!run.stderr.contains("--output folder"), "stderr: \(run.stderr)")
            #expect(try scratch.listing("in") == ["a.txt", "new/a.txt.gz"])
        }

        @Test("--output given as a symbolic link to a folder is followed; folders below it are mirrored")
        func symbolicLinkOutput() throws {
            let scratch = try Scratch()
            try scratch.file("in/a.txt", Sample.text(2_000))
            try scratch.file("in/sub/b.txt", Sample.text(2_000, seed: 4))
            _ = try scratch.folder("real")
            try FileManager.default.createSymbolicLink(atPath: scratch.path + "/link", withDestinationPath: "real")
            let run = try SqueezerProcess.run(["-r", "-o", scratch.path + "/link", scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(try scratch.listing("real") == ["a.txt.gz", "sub/b.txt.gz"])
        }

        @Test("--output that exists and is not a folder: exit 2, one message, nothing done",
              arguments: ["afile", "afile/sub", "dangling", "dangling/sub"])
        func notAFolder(_ output: String) throws {
            let scratch = try Scratch()
            for index in 0..<3 { try scratch.file("in/f\(index).txt", Sample.text(1_000, seed: UInt64(index))) }
            try scratch.file("afile", Data("mine\n".utf8))
            try FileManager.default.createSymbolicLink(atPath: scratch.path + "/dangling", withDestinationPath: "nowhere")
            let before = try scratch.snapshot("in")
            let top = try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted()
            let run = try SqueezerProcess.run(["-o", scratch.path + "/" + output, scratch.path + "/in"], in: scratch)
            #expect(run.status == 2)
            let expected = output.hasPrefix("afile")
                ? "file-squeezer: \(scratch.path)/afile: not a folder (the --output folder)\n"
                : "file-squeezer: \(scratch.path)/dangling: is a symbolic link to nothing, not a folder (the --output folder)\n"
            #expect(run.stderr == expected)
            #expect(run.stdout.isEmpty)
            #expect(try scratch.snapshot("in") == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == top)
            #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/afile")) == Data("mine\n".utf8))
            #expect(!FileManager.default.fileExists(atPath: scratch.path + "/nowhere"))
        }
    }
}
