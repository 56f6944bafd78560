import Testing
import TestSupport

extension EndToEnd {
    /// What is at a `--trace`/`--timeline` path is never replaced by
    /// something else: a plain file (or none) is written whole and renamed
    /// into place; a device, FIFO or pipe, even through symbolic links, is
    /// written through; a symbolic link or a hard link to a regular file is
    /// refused, named, and left as it was.
    @Suite("End to end: --trace and --timeline paths that are not plain files")
    struct TracePathTests {
        static func input(_ scratch: Scratch) throws -> String {
            try scratch.file("in/a.txt", Sample.text(10_000))
            return scratch.path + "/in"
        }

        static func fileType(_ path: String) -> mode_t? {
            var info = stat()
            return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
        }

        /// A copy of the /dev/null node in the scratch folder: the real one
        /// is never a test's target. mknod needs root.
        @Test("a device node (a copy of /dev/null) is written through and stays a device",
              .enabled(if: geteuid() == 0), arguments: ["--trace", "--timeline"])
        func deviceNode(_ flag: String) throws {
            let scratch = try Scratch()
            let folder = try Self.input(scratch)
            let null = scratch.path + "/x/null", linkToNull = scratch.path + "/x/to-null"
            _ = try scratch.folder("x")
            try #require(mknod(null, S_IFCHR | 0o666, dev_t(1 << 8 | 3)) == 0, "mknod: \(errno)")
            #expect(symlink(null, linkToNull) == 0)
            for path in [null, linkToNull] {
                let run = try SqueezerProcess.run(["-q", "--force", flag, path, folder], in: scratch)
                #expect(run.status == 0, "\(path): stderr: \(run.stderr)")
            }
            #expect(Self.fileType(null) == S_IFCHR, "x/null is no longer a device")
            #expect(Self.fileType(linkToNull) == S_IFLNK, "x/to-null is no longer a symbolic link")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: linkToNull) == null)
            #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/x").sorted() == ["null", "to-null"])
        }

        /// A copy of the /dev/stdout link in the scratch folder: a build
        /// without the fix, run as root, replaced the real one with a
        /// regular file.
        @Test("a /dev/stdout link on a pipe gets the trace and stays a link",
              .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")))
        func standardOutput() throws {
            let scratch = try Scratch()
            let folder = try Self.input(scratch)
            let stdout = scratch.path + "/stdout"
            #if os(Linux)
            let standardOutput = "/proc/self/fd/1"  // where /dev/stdout leads
            #else
            let standardOutput = "/dev/fd/1"
            #endif
            #expect(symlink(standardOutput, stdout) == 0)
            let script = "\"$0\" -q --trace \"$1/../stdout\" \"$1\" | cat > \"$1/../piped\"; echo \"status=${PIPESTATUS[0]}\" >&2"
            let run = try SqueezerProcess.run([folder], prefix: ["/bin/bash", "-c", script], in: scratch)
            #expect(run.stderr.contains("status=0\n"), "stderr: \(run.stderr)")
            let piped = try String(contentsOfFile: scratch.path + "/piped", encoding: .utf8)
            #expect(piped.contains("\"traceEvents\""), "the trace did not reach the pipe: \(piped.prefix(200))")
            #expect(Self.fileType(stdout) == S_IFLNK, "the link was replaced")
        }

        @Test("a symbolic link or a hard link to a regular file: refused, named, exit 1, both left as they were",
              arguments: ["--trace", "--timeline"])
        func links(_ flag: String) throws {
            let scratch = try Scratch()
            let folder = try Self.input(scratch)
            let target = try scratch.file("kept/target.json", Data("my own file\n".utf8))
            let symbolic = scratch.path + "/kept/symbolic.json", hard = scratch.path + "/kept/hard.json"
            #expect(symlink(target, symbolic) == 0)
            #expect(link(target, hard) == 0)
            var before = stat()
            #expect(stat(target, &before) == 0)

            for path in [symbolic, hard] {
                let run = try SqueezerProcess.run(["--force", flag, path, folder], in: scratch)
                #expect(run.status == 1, "\(path): stderr: \(run.stderr)")
                #expect(run.stderr.contains("cannot write the \(flag.dropFirst(2)) to \(path): "), "stderr: \(run.stderr)")
            }
            #expect(Self.fileType(symbolic) == S_IFLNK, "the symbolic link was replaced")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: symbolic) == target)
            var after = stat(), hardAfter = stat()
            #expect(stat(target, &after) == 0 && stat(hard, &hardAfter) == 0)
            #expect(after.st_ino == before.st_ino && hardAfter.st_ino == before.st_ino && after.st_nlink == 2,
                    "the hard link was broken")
            #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("my own file\n".utf8))
            #expect(try scratch.listing("kept") == ["hard.json", "symbolic.json", "target.json"], "nothing else left")
        }

        @Test("a plain file with one link is still replaced whole")
        func plainFile() throws {
            let scratch = try Scratch()
            let folder = try Self.input(scratch)
            let path = try scratch.file("run.json", Data("old\n".utf8))
            let run = try SqueezerProcess.run(["--trace", path, folder], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(Self.fileType(path) == S_IFREG)
            #expect(try String(contentsOfFile: path, encoding: .utf8).contains("\"traceEvents\""))
        }
    }
}
