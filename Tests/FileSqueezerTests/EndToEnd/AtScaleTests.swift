import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
@testable import FileSqueezerCore

extension EndToEnd {
    /// Issue 29's "at scale, tried as a hostile user would": many folders
    /// under a low open-file limit, empty folders, files removed or
    /// replaced after they were opened, a folder made read-only mid-run,
    /// hard links, and a `--trace` that cannot be written.
    @Suite("End to end: at scale", .longRun)
    struct AtScaleTests {
        /// Soft and hard `ulimit -n`, then the binary, through a shell: it cannot raise them.
        static func limited(
            _ descriptors: Int, _ arguments: [String], environment: [String: String] = [:], in scratch: Scratch
        ) throws -> SqueezerRun {
            try SqueezerProcess.run(
                arguments, prefix: ["/bin/sh", "-c", "ulimit -Sn \(descriptors) && ulimit -Hn \(descriptors) && exec \"$0\" \"$@\""],
                environment: environment, in: scratch)
        }

        /// `count` folders `in/dNNNN` with one small file each.
        static func manyFolders(_ count: Int, in scratch: Scratch) throws -> String {
            let root = try scratch.folder("in")
            for index in 0..<count {
                #expect(mkdir(root + "/d\(index)", 0o755) == 0)
                #expect(FileManager.default.createFile(atPath: root + "/d\(index)/f", contents: Data("file \(index)\n".utf8)))
            }
            return root
        }

        /// Before issue 29 every folder with a file held a descriptor until
        /// its files were done: more folders than `ulimit -n` compressed
        /// nothing (exit 1), or trapped in libdispatch (SIGILL, exit 132).
        @Test("3,000 folders with one file each under ulimit -n 64: every file compressed, exit 0",
              .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/sh")),
              arguments: [false, true])
        func manyFoldersLowLimit(_ underOutput: Bool) throws {
            let scratch = try Scratch()
            let count = 3_000
            let root = try Self.manyFolders(count, in: scratch)
            let output = scratch.path + "/out"
            let run = try Self.limited(64, ["-q", "-r"] + (underOutput ? ["--output", output] : []) + [root], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr.prefix(2000))")
            #expect(run.stdout.contains("Squeezed \(count) files"), "stdout: \(run.stdout)")
            let base = underOutput ? output : root
            let missing = (0..<count).filter { access(base + "/d\($0)/f.gz", F_OK) != 0 }
            #expect(missing.isEmpty, "\(missing.count) .gz missing, first \(missing.prefix(5))")
        }

        /// Empty folders are never opened, so they must not lower the jobs
        /// (before: one descriptor set aside per folder under `--output`).
        @Test("empty input folders do not lower --jobs under --output",
              .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/sh")))
        func emptyFoldersKeepTheJobs() throws {
            let scratch = try Scratch()
            let root = try scratch.folder("in")
            for index in 0..<300 { #expect(mkdir(root + "/empty-\(index)", 0o755) == 0) }
            try scratch.file("in/a.txt", Sample.text(10_000))
            let run = try Self.limited(
                128, ["-r", "--jobs", "2", "--output", scratch.path + "/out", root], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(!run.stderr.contains("instead of --jobs"), "stderr: \(run.stderr)")
            #expect(run.stdout.contains("2 jobs"), "stdout: \(run.stdout)")
            #expect(access(scratch.path + "/out/a.txt.gz", F_OK) == 0)
        }

        /// Waits until `process` has `path` open (its `/proc/PID/fd` links to it).
        static func waitUntilOpen(_ path: String, by process: Process, limit: Duration = .seconds(60)) -> Bool {
            #if os(Linux)
            let deadline = ContinuousClock.now + limit
            let descriptors = "/proc/\(process.processIdentifier)/fd"
            while ContinuousClock.now < deadline, process.isRunning {
                for name in (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? []
                where (try? FileManager.default.destinationOfSymbolicLink(atPath: descriptors + "/" + name)) == path {
                    return true
                }
                usleep(1_000)
            }
            #endif
            return false
        }

        #if os(Linux)
        static let seesOpenFiles = true
        #else
        static let seesOpenFiles = false  // no /proc/PID/fd to see it
        #endif

        /// Removed, or replaced with `mv`, after it was opened: its name is
        /// looked at again just before the `.gz` is linked into place.
        @Test("a file removed or replaced after it was opened fails, named, and leaves no .gz",
              .enabled(if: Self.seesOpenFiles), arguments: [false, true])
        func goneAfterOpen(_ replaced: Bool) throws {
            let scratch = try Scratch()
            try scratch.file("tree/big.txt", DuringRunTests.slowFile(megabytes: 4))
            try scratch.file("tree/small.txt", Sample.text(5_000))
            let (process, out, err) = try SqueezerProcess.start(
                ["--jobs", "1", "--level", "9", "--segment-kib", "1048576", scratch.path + "/tree"], in: scratch)
            #expect(Self.waitUntilOpen(scratch.path + "/tree/big.txt", by: process))
            if replaced {
                try scratch.file("other.txt", Data("another file\n".utf8))
                #expect(rename(scratch.path + "/other.txt", scratch.path + "/tree/big.txt") == 0)
            } else {
                #expect(unlink(scratch.path + "/tree/big.txt") == 0)
            }
            process.waitUntilExit()
            let run = try SqueezerProcess.collect(process, out, err)
            #expect(run.status == 1, "stderr: \(run.stderr)")
            let reason = replaced
                ? "big.txt: the file was replaced during the run (another file has its name now); left alone"
                : "big.txt: the file vanished during the run"
            #expect(run.stderr.contains(reason), "stderr: \(run.stderr)")
            let listing = try scratch.listing("tree")
            #expect(!listing.contains("big.txt.gz"), "\(listing)")
            #expect(listing.contains("small.txt.gz"), "\(listing)")
            #expect(!listing.contains { $0.contains(".squeeze-") }, "\(listing)")
        }

        /// The named fallback in a folder made read-only mid-run: the
        /// temporary cannot be removed, and the run says so, naming it.
        /// chmod stops no root process, so as root the binary runs as
        /// nobody (`setpriv`).
        @Test("a named temporary that cannot be removed (folder made read-only mid-run) is named on stderr",
              .enabled(if: geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
        func leftoverNamed() throws {
            let scratch = try Scratch()
            try scratch.file("tree/big.txt", DuringRunTests.slowFile(megabytes: 4))
            let asNobody = geteuid() == 0
            if asNobody {
                for path in [scratch.path, scratch.path + "/tree"] { #expect(chmod(path, 0o777) == 0) }
                #expect(chmod(scratch.path + "/tree/big.txt", 0o644) == 0)
            }
            let (process, out, err) = try SqueezerProcess.start(
                ["--jobs", "1", "--level", "9", "--segment-kib", "1048576", scratch.path + "/tree"],
                prefix: asNobody ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : [],
                environment: [TemporaryOutput.forceNamedEnvironmentVariable: "1"], in: scratch)
            #expect(DuringRunTests.waitForTemporaryFile(in: scratch.path + "/tree", process: process))
            #expect(chmod(scratch.path + "/tree", 0o555) == 0)
            process.waitUntilExit()
            defer { _ = chmod(scratch.path + "/tree", 0o755) }
            let run = try SqueezerProcess.collect(process, out, err)
            let left = try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/tree")
                .filter { $0.hasPrefix(".squeeze-") }
            #expect(left.count == 1, "stderr: \(run.stderr)")
            #expect(run.status == 1, "stderr: \(run.stderr)")
            for name in left {
                #expect(run.stderr.contains("cannot remove this run's temporary file \(scratch.path)/tree/\(name)"),
                        "stderr: \(run.stderr)")
            }
        }

        /// gzip refuses a file with other links unless forced; so does File
        /// Squeezer, with a note naming it.
        @Test("a hard link to a file outside the tree is skipped with a note; --force compresses it")
        func hardLink() throws {
            let scratch = try Scratch()
            try scratch.file("outside/secret.txt", Data("secret\n".utf8))
            try scratch.file("tree/plain.txt", Data("plain\n".utf8))
            #expect(link(scratch.path + "/outside/secret.txt", scratch.path + "/tree/linked.txt") == 0)

            let run = try SqueezerProcess.run([scratch.path + "/tree"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.stderr.contains("linked.txt: has 1 other link - ignored (--force compresses it anyway)"),
                    "stderr: \(run.stderr)")
            #expect(try scratch.listing("tree") == ["linked.txt", "plain.txt", "plain.txt.gz"])

            let forced = try SqueezerProcess.run(["--force", scratch.path + "/tree"], in: scratch)
            #expect(forced.status == 0, "stderr: \(forced.stderr)")
            #expect(try scratch.listing("tree") == ["linked.txt", "linked.txt.gz", "plain.txt", "plain.txt.gz"])
        }

        @Test("--trace or --timeline to a path that cannot be written: named, exit 1", arguments: ["--trace", "--timeline"])
        func unwritableTrace(_ flag: String) throws {
            let scratch = try Scratch()
            try scratch.file("in/a.txt", Sample.text(10_000))
            let path = scratch.path + "/no-such-folder/run.out"
            let run = try SqueezerProcess.run([flag, path, scratch.path + "/in"], in: scratch)
            #expect(run.status == 1, "stderr: \(run.stderr)")
            #expect(run.stderr.contains("cannot write the"), "stderr: \(run.stderr)")
            #expect(access(scratch.path + "/in/a.txt.gz", F_OK) == 0)
        }
    }
}
