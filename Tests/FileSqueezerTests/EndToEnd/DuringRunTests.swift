import Testing
@testable import FileSqueezerCore
import TestSupport

extension EndToEnd {
    /// Things that happen while a run is under way: files changing under it,
    /// and Ctrl-C.
    @Suite("End to end: during the run")
    struct DuringRunTests {
        /// A file that takes a while at level 9: 1 MiB of text repeated (the
        /// repeats are far outside deflate's 32 KiB window, so no shortcut).
        static func slowFile(megabytes: Int) -> Data {
            let block = Sample.text(1 << 20, seed: 11)
            var data = Data(capacity: megabytes << 20)
            for _ in 0..<megabytes { data.append(block) }
            return data
        }

        /// Waits until a temporary output file exists in `folder` (the run is
        /// mid-file then): a named one (`.squeeze-PID-TOKEN`, or an earlier build's
        /// `.NAME.gz.squeeze-XXXXXX`), or an unnamed
        /// (`O_TMPFILE`) one that the process holds open, which
        /// `/proc/PID/fd` shows as `FOLDER/#INODE (deleted)`. Gives up after `limit`.
        static func waitForTemporaryFile(in folder: String, process: Process, limit: Duration = .seconds(60)) -> Bool {
            let deadline = ContinuousClock.now + limit
            while ContinuousClock.now < deadline, process.isRunning {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                if names.contains(where: { $0.contains(".squeeze-") }) { return true }
                if holdsUnnamedFile(in: folder, process: process.processIdentifier) { return true }
                usleep(2_000)
            }
            return false
        }

        /// Whether process `pid` has an `O_TMPFILE` file of `folder` open.
        static func holdsUnnamedFile(in folder: String, process pid: Int32) -> Bool {
            #if os(Linux)
            let descriptors = "/proc/\(pid)/fd"
            for name in (try? FileManager.default.contentsOfDirectory(atPath: descriptors)) ?? [] {
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: descriptors + "/" + name)
                else { continue }
                if target.hasPrefix(folder + "/#") { return true }
            }
            #endif
            return false
        }

        @Test("a file that vanishes or changes size during the run fails with the reason; others complete")
        func filesChangeUnderTheRun() throws {
            let scratch = try Scratch()
            try scratch.file("in/a-slow.txt", Self.slowFile(megabytes: 8))
            try scratch.file("in/b-vanishes.txt", Sample.text(10_000))
            try scratch.file("in/c-grows.txt", Sample.text(10_000, seed: 3))
            try scratch.file("in/d-fine.txt", Sample.text(10_000, seed: 4))
            let (process, out, err) = try SqueezerProcess.start(["--jobs", "1", "--level", "9", scratch.path + "/in"], in: scratch)
            let midRun = Self.waitForTemporaryFile(in: scratch.path + "/in", process: process)
            #expect(midRun, "the slow file should still be compressing")
            try FileManager.default.removeItem(atPath: scratch.path + "/in/b-vanishes.txt")
            let handle = try FileHandle(forWritingTo: scratch.url.appendingPathComponent("in/c-grows.txt"))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data("more".utf8))
            try handle.close()
            process.waitUntilExit()
            let run = try SqueezerProcess.collect(process, out, err)

            #expect(run.status == 1)
            #expect(run.stderr.contains("b-vanishes.txt: the file vanished during the run"))
            #expect(run.stderr.contains("c-grows.txt: the file changed size during the run (10000 bytes at the start, 10004 now)"))
            #expect(try scratch.listing("in") == ["a-slow.txt", "a-slow.txt.gz", "c-grows.txt", "d-fine.txt", "d-fine.txt.gz"])
            #expect(try runTool("/usr/bin/gzip", ["-t", scratch.path + "/in/a-slow.txt.gz"]).status == 0)
        }

        @Test("a big file that changes size while its segments are compressed fails naming it; nothing of it is left")
        func splitFileChangesSize() throws {
            let scratch = try Scratch()
            let path = try scratch.file("in/a-slow.txt", Self.slowFile(megabytes: 8))
            try scratch.file("in/b-fine.txt", Sample.text(10_000, seed: 4))
            let (process, out, err) = try SqueezerProcess.start(
                ["--jobs", "2", "--level", "9", "--segment-kib", "64", scratch.path + "/in"], in: scratch)
            #expect(Self.waitForTemporaryFile(in: scratch.path + "/in", process: process), "a-slow.txt should still be compressing")
            // Whether a segment then reads short or the end-of-file check sees
            // it, the size it reports is the new one.
            #expect(truncate(path, 4 << 20) == 0)
            process.waitUntilExit()
            let run = try SqueezerProcess.collect(process, out, err)

            #expect(run.status == 1)
            #expect(run.stderr.contains("a-slow.txt: the file changed size during the run (8388608 bytes at the start, 4194304 now)"))
            #expect(try scratch.listing("in") == ["a-slow.txt", "b-fine.txt", "b-fine.txt.gz"])
        }

        /// A whole file, streamed (stage 2 writes its output as it is
        /// deflated), truncated to 0 once some of it was read (its named
        /// temporary holds 64 KiB of output): the message gives its size
        /// now, not the bytes read so far.
        @Test("a file truncated to 0 mid-read: 'changed size' gives its size now, 0")
        func truncatedMidRead() throws {
            let scratch = try Scratch()
            let path = try scratch.file("in/a-slow.txt", Self.slowFile(megabytes: 8))
            let (process, out, err) = try SqueezerProcess.start(
                ["--strategy", "actor", "--jobs", "1", "--level", "9", scratch.path + "/in"],
                environment: [TemporaryOutput.forceNamedEnvironmentVariable: "1"], in: scratch)
            let deadline = ContinuousClock.now + .seconds(60)
            func temporaryHoldsOutput() -> Bool {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: scratch.path + "/in")) ?? []
                return names.contains { name in
                    guard name.hasPrefix(".squeeze-") else { return false }
                    var info = stat()
                    return stat(scratch.path + "/in/" + name, &info) == 0 && info.st_size >= 65_536
                }
            }
            while ContinuousClock.now < deadline, process.isRunning, !temporaryHoldsOutput() { usleep(2_000) }
            #expect(truncate(path, 0) == 0)
            process.waitUntilExit()
            let run = try SqueezerProcess.collect(process, out, err)

            #expect(run.status == 1, "stderr: \(run.stderr)")
            #expect(run.stderr.contains("a-slow.txt: the file changed size during the run (8388608 bytes at the start, 0 now)"),
                    "stderr: \(run.stderr)")
            #expect(try scratch.listing("in") == ["a-slow.txt"])
        }

        @Test("SIGINT mid-run: exit 130, no temporary or partial files, originals unchanged", arguments: [
            ["--strategy", "main-actor"], ["--strategy", "actor"], ["--strategy", "parallel"],
            ["--strategy", "parallel", "--deflate-on", "pool"], ["--strategy", "parallel", "--segment-kib", "64"],
        ])
        func interrupt(_ strategy: [String]) throws {
            let scratch = try Scratch()
            try scratch.file("in/a-small.txt", Sample.text(5_000))
            try scratch.file("in/b-slow.txt", Self.slowFile(megabytes: 16))
            try scratch.file("in/c-slow.txt", Self.slowFile(megabytes: 16))
            try scratch.file("in/d-later.txt", Sample.text(5_000, seed: 8))
            let before = try scratch.snapshot("in")
            let (process, out, err) = try SqueezerProcess.start(
                ["--jobs", "2", "--level", "9"] + strategy + [scratch.path + "/in"], in: scratch)
            #expect(Self.waitForTemporaryFile(in: scratch.path + "/in", process: process))
            let sentAt = ContinuousClock.now
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
            let reaction = ContinuousClock.now - sentAt
            let run = try SqueezerProcess.collect(process, out, err)

            #expect(run.status == 130, "stderr: \(run.stderr)")
            #expect(run.stdout.contains("Interrupted by SIGINT:"))
            // Cancellation is polled per 256 KiB chunk (and before each segment): well under a second even
            // at level 9 on a loaded machine (generous: 10 s).
            #expect(reaction < .seconds(10))
            let names = try scratch.listing("in")
            #expect(!names.contains { $0.contains(".squeeze-") }, "temporary files left: \(names)")
            #expect(!names.contains("b-slow.txt.gz") && !names.contains("c-slow.txt.gz"))
            for name in names where name.hasSuffix(".gz") {
                // Whatever finished before the signal is complete and valid.
                #expect(try runTool("/usr/bin/gzip", ["-t", scratch.path + "/in/" + name]).status == 0)
            }
            #expect(try scratch.snapshot("in").filter { !$0.key.hasSuffix(".gz") } == before)
        }
    }
}
