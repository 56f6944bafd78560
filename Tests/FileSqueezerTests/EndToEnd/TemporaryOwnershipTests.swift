import Testing
import TestSupport

extension EndToEnd {
    /// A name that looks like one of our temporaries proves nothing: only a
    /// file that is provably ours (exact shape with a random token, our
    /// owner, one link, gzip magic or empty), in a folder the run writes
    /// to, whose writer is gone, is ever removed. Everything else is an
    /// input like any other, or a named skip: never silent, never removed.
    @Suite("End to end: only our own temporaries are removed")
    struct TemporaryOwnershipTests {
        static let gzipHead = Data([0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00])

        /// A pid no process has: that of a child already reaped.
        static func deadPID() throws -> pid_t {
            let gone = Process()
            gone.executableURL = URL(fileURLWithPath: "/bin/true")
            try gone.run()
            gone.waitUntilExit()
            return gone.processIdentifier
        }

        /// User files that only look like temporaries: the reviewer's
        /// repro (the old `.squeeze-PID-N` shape, an earlier build's
        /// `.NAME.gz.squeeze-XXXXXX`), and names of the exact new shape
        /// that fail a check (not gzip, linked twice).
        static func makeLookalikes(_ scratch: Scratch) throws -> [String] {
            let dead = try deadPID()
            var names = [
                ".squeeze-\(dead)-1", ".squeeze-4000000-7", ".squeeze-1-1", ".a.gz.squeeze-AbC123",
                ".squeeze-\(dead)-0123456789abcdef",
            ]
            try scratch.file("in/.squeeze-\(dead)-1", Data("precious user data\n".utf8))
            try scratch.file("in/.squeeze-4000000-7", Data("also mine\n".utf8))
            try scratch.file("in/.squeeze-1-1", Data("pid 1 is alive\n".utf8))
            try scratch.file("in/.a.gz.squeeze-AbC123", Data("legacy-looking\n".utf8))
            try scratch.file("in/.squeeze-\(dead)-0123456789abcdef", Data("exact shape, not gzip\n".utf8))
            // Exact shape and gzip magic, but a second link: a temporary never has one.
            let linked = ".squeeze-\(dead)-fedcba9876543210"
            try scratch.file("in/" + linked, gzipHead + Data("mine too".utf8))
            #expect(link(scratch.path + "/in/" + linked, scratch.path + "/in/kept-link") == 0)
            names += [linked, "kept-link"]
            if getuid() == 0 {
                // Exact shape and gzip magic, but someone else's file.
                let foreign = ".squeeze-\(dead)-00000000000000ff"
                try scratch.file("in/" + foreign, gzipHead + Data("nobody's".utf8))
                #expect(chown(scratch.path + "/in/" + foreign, 65534, 65534) == 0)
                try scratch.file("in/.squeeze-\(dead)-2", Data("owned by nobody\n".utf8))
                #expect(chown(scratch.path + "/in/.squeeze-\(dead)-2", 65534, 65534) == 0)
                names += [foreign, ".squeeze-\(dead)-2"]
            }
            try scratch.file("in/a.txt", Data("a\n".utf8))
            return names + ["a.txt"]
        }

        @Test("files that only look like temporaries are compressed like any other, never removed",
              arguments: OutputPlacementTests.temporaries)
        func lookalikesBeside(_ environment: [String: String]) throws {
            let scratch = try Scratch()
            let names = try Self.makeLookalikes(scratch)
            let before = try scratch.snapshot("in")
            // --force: the two-link lookalike is compressed too (without it, skipped as a hard link).
            let run = try SqueezerProcess.run(["--force", scratch.path + "/in"], environment: environment, in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(!run.stderr.contains("removed"), "stderr: \(run.stderr)")
            #expect(try scratch.snapshot("in").filter { before[$0.key] != nil } == before)
            for name in names {
                let unzipped = try runTool("/usr/bin/gzip", ["-dc", scratch.path + "/in/" + name + ".gz"])
                #expect(unzipped.status == 0 && unzipped.output == before[name], "\(name): \(run.stderr)")
            }
        }

        @Test("under --output the input tree is never a destination: nothing in it is removed, even a killed run's temporary")
        func lookalikesUnderOutput() throws {
            let scratch = try Scratch()
            var names = try Self.makeLookalikes(scratch)
            let genuine = ".squeeze-\(try Self.deadPID())-abcdefabcdef0123"
            try scratch.file("in/" + genuine, Self.gzipHead)
            names.append(genuine)
            let before = try scratch.snapshot("in")
            let run = try SqueezerProcess.run(["--force", "--output", scratch.path + "/out", scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(try scratch.snapshot("in") == before)
            #expect(try scratch.listing("out") == names.map { $0 + ".gz" }.sorted())
        }

        @Test("--output FOLDER FOLDER writes beside the originals: a killed run's temporary there is removed")
        func outputIsFolder() throws {
            let scratch = try Scratch()
            let killed = ".squeeze-\(try Self.deadPID())-0123456789abcdef"
            try scratch.file("in/" + killed, Self.gzipHead)
            try scratch.file("in/a.txt", Data("a\n".utf8))
            let run = try SqueezerProcess.run(["--output", scratch.path + "/in", scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.stderr.contains("removed 1 temporary file left by a run that was killed: \(killed)\n"), "stderr: \(run.stderr)")
            #expect(try scratch.listing("in") == ["a.txt", "a.txt.gz"])
        }

        @Test("our own temporaries: a live writer's is named and left alone, a killed run's (even empty) is removed",
              arguments: OutputPlacementTests.temporaries)
        func ours(_ environment: [String: String]) throws {
            let scratch = try Scratch()
            let dead = try Self.deadPID()
            let live = ".squeeze-\(getpid())-0123456789abcdef"
            let killed = ".squeeze-\(dead)-0123456789abcdef", killedEmpty = ".squeeze-\(dead)-00000000deadbeef"
            try scratch.file("in/" + live, Self.gzipHead)
            try scratch.file("in/" + killed, Self.gzipHead + Data("partial".utf8))
            try scratch.file("in/" + killedEmpty, Data())
            try scratch.file("in/a.txt", Data("a\n".utf8))
            // --force: the two-link lookalike is compressed too (without it, skipped as a hard link).
            let run = try SqueezerProcess.run(["--force", scratch.path + "/in"], environment: environment, in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.stderr.contains(
                "removed 2 temporary files left by a run that was killed: \([killedEmpty, killed].sorted().joined(separator: ", "))\n"),
                "stderr: \(run.stderr)")
            #expect(run.stderr.contains("\(live): is a temporary file of file-squeezer process \(getpid()), still running - ignored\n"),
                    "stderr: \(run.stderr)")
            #expect(try scratch.listing("in") == [live, "a.txt", "a.txt.gz"])
        }
    }
}
