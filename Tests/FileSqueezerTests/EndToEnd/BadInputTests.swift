import Testing
import TestSupport

extension EndToEnd {
    /// Each bad input gives a line naming the file and the reason, the other
    /// files still complete, and the exit status says what happened.
    @Suite("End to end: bad input")
    struct BadInputTests {
        @Test("a missing folder is a usage error naming it")
        func missingFolder() throws {
            let scratch = try Scratch()
            let run = try SqueezerProcess.run([scratch.path + "/nowhere"], in: scratch)
            #expect(run.status == 2)
            #expect(run.stderr.contains("\(scratch.path)/nowhere: no such folder"))
        }

        @Test("a file given instead of a folder is a usage error naming it")
        func notAFolder() throws {
            let scratch = try Scratch()
            let file = try scratch.file("plain.txt", Sample.text(100))
            let run = try SqueezerProcess.run([file], in: scratch)
            #expect(run.status == 2)
            #expect(run.stderr.contains("\(file): not a folder"))
            #expect(try scratch.listing() == ["plain.txt"])
        }

        @Test("usage errors exit 2 with a message", arguments: [
            (["--level", "10", "x"], "--level must be a whole number from 1 to 9"),
            (["--jobs", "zero", "x"], "--jobs must be a whole number"),
            (["--strategy", "fast", "x"], "--strategy must be one of main-actor, actor, concurrent, parallel"),
            (["--frobnicate", "x"], "unknown option '--frobnicate'"),
            ([], "missing FOLDER"),
            (["a", "b"], "give exactly one FOLDER"),
        ])
        func usage(_ arguments: [String], _ message: String) throws {
            let scratch = try Scratch()
            let run = try SqueezerProcess.run(arguments, in: scratch)
            #expect(run.status == 2)
            #expect(run.stderr.contains(message))
            #expect(run.stderr.contains("--help"))
        }

        @Test("--help prints usage and exits 0")
        func help() throws {
            let scratch = try Scratch()
            let run = try SqueezerProcess.run(["--help"], in: scratch)
            #expect(run.status == 0)
            #expect(run.stdout.contains("USAGE: file-squeezer [options] FOLDER"))
        }

        @Test("an existing .gz is left untouched and reported (exit 1); --force overwrites it")
        func existingOutput() throws {
            let scratch = try Scratch()
            try scratch.file("in/a.txt", Sample.text(10_000))
            try scratch.file("in/b.txt", Sample.text(10_000, seed: 9))
            try scratch.file("in/a.txt.gz", Data("not really gzip".utf8))
            let run = try SqueezerProcess.run([scratch.path + "/in"], in: scratch)
            #expect(run.status == 1)
            #expect(run.stderr.contains("a.txt: \(scratch.path)/in/a.txt.gz already exists; left untouched (use --force to overwrite)"))
            #expect(run.stderr.contains("a.txt.gz: already has .gz suffix - ignored"))
            #expect(try Data(contentsOf: scratch.url.appendingPathComponent("in/a.txt.gz")) == Data("not really gzip".utf8))
            #expect(try runTool("/usr/bin/gzip", ["-dc", scratch.path + "/in/b.txt.gz"]).output == Sample.text(10_000, seed: 9))

            let forced = try SqueezerProcess.run(["--force", scratch.path + "/in"], in: scratch)
            #expect(forced.status == 0, "stderr: \(forced.stderr)")
            #expect(try runTool("/usr/bin/gzip", ["-dc", scratch.path + "/in/a.txt.gz"]).output == Sample.text(10_000))
        }

        @Test("an unwritable destination fails those files (exit 1), others complete, originals unchanged")
        func unwritableDestination() throws {
            let scratch = try Scratch()
            try scratch.file("in/ok.txt", Sample.text(10_000))
            try scratch.file("in/sub/blocked.txt", Sample.text(10_000, seed: 4))
            // The mirrored folder out/sub cannot be created: a file has that name.
            try scratch.file("out/sub", Data("in the way".utf8))
            let before = try scratch.snapshot("in")
            let run = try SqueezerProcess.run(["--recursive", "--output", scratch.path + "/out", scratch.path + "/in"], in: scratch)
            #expect(run.status == 1)
            #expect(run.stderr.contains("sub/blocked.txt: cannot create folder \(scratch.path)/out/sub"))
            #expect(try scratch.snapshot("in") == before)
            #expect(try scratch.listing("out") == ["ok.txt.gz", "sub"])
            #expect(try runTool("/usr/bin/gzip", ["-t", scratch.path + "/out/ok.txt.gz"]).status == 0)
        }

        @Test("symbolic links and FIFOs are skipped with a note, like gzip")
        func specialFiles() throws {
            let scratch = try Scratch()
            let target = try scratch.file("in/real.txt", Sample.text(1000))
            try FileManager.default.createSymbolicLink(atPath: scratch.path + "/in/link.txt", withDestinationPath: target)
            #expect(mkfifo(scratch.path + "/in/pipe", 0o644) == 0)
            let run = try SqueezerProcess.run([scratch.path + "/in"], in: scratch)
            #expect(run.status == 0)
            #expect(run.stderr.contains("link.txt: is a symbolic link - ignored"))
            #expect(run.stderr.contains("pipe: is not a regular file (FIFO, socket or device) - ignored"))
            #expect(!FileManager.default.fileExists(atPath: scratch.path + "/in/link.txt.gz"))
            #expect(FileManager.default.fileExists(atPath: scratch.path + "/in/real.txt.gz"))
        }

        @Test("an unreadable file fails (exit 1) with the reason; the others complete")
        func unreadableFile() throws {
            let scratch = try Scratch()
            try scratch.file("in/readable.txt", Sample.text(10_000))
            let secret = try scratch.file("in/secret.txt", Sample.text(10_000, seed: 5))
            #expect(chmod(secret, 0) == 0)
            // root reads anything: run the tool as `nobody` then.
            var prefix: [String] = []
            if getuid() == 0 {
                #expect(chmod(scratch.path, 0o777) == 0 && chmod(scratch.path + "/in", 0o777) == 0)
                prefix = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
            }
            let run = try SqueezerProcess.run([scratch.path + "/in"], prefix: prefix, in: scratch)
            #expect(run.status == 1, "stderr: \(run.stderr)")
            #expect(run.stderr.contains("secret.txt: cannot open: Permission denied"))
            #expect(try runTool("/usr/bin/gzip", ["-dc", scratch.path + "/in/readable.txt.gz"]).output == Sample.text(10_000))
            #expect(!FileManager.default.fileExists(atPath: scratch.path + "/in/secret.txt.gz"))
        }
    }
}
