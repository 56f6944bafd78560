import Testing
import TestSupport

extension EndToEnd {
    /// A tree someone else changes during the run (issue 20): the run walks
    /// it by descriptor, so nothing outside it is read or written.
    @Suite("End to end: a tree that changes under the run", .longRun)
    struct HostileTreeTests {
        /// tree/a/0-big.txt (slow), tree/a/zz-secret (a decoy), outside/zz-secret (same size).
        static func makeSwapSetup(_ scratch: Scratch, megabytes: Int) throws {
            try scratch.file("tree/a/0-big.txt", DuringRunTests.slowFile(megabytes: megabytes))
            try scratch.file("tree/a/zz-secret", Data("decoy-xyz\n".utf8))
            try scratch.file("outside/zz-secret", Data("TOPSECRET\n".utf8))
        }

        @Test(
            "a subfolder swapped for a symbolic link mid-run, with a same-size decoy: nothing outside is read or written (20 tries)",
            arguments: OutputPlacementTests.temporaries)
        func swappedForSymlink(_ environment: [String: String]) throws {
            for attempt in 0..<20 {
                let scratch = try Scratch()
                try Self.makeSwapSetup(scratch, megabytes: 2)
                let (process, out, err) = try SqueezerProcess.start(
                    ["--jobs", "1", "--level", "9", "--segment-kib", "1048576", "-r", scratch.path + "/tree"],
                    environment: environment, in: scratch)
                #expect(DuringRunTests.waitForTemporaryFile(in: scratch.path + "/tree/a", process: process), "attempt \(attempt)")
                try FileManager.default.moveItem(atPath: scratch.path + "/tree/a", toPath: scratch.path + "/tree/a.orig")
                try FileManager.default.createSymbolicLink(atPath: scratch.path + "/tree/a", withDestinationPath: "../outside")
                process.waitUntilExit()
                let run = try SqueezerProcess.collect(process, out, err)
                #expect(try scratch.listing("outside") == ["zz-secret"], "attempt \(attempt): written outside; stderr: \(run.stderr)")
                // The real folder, reached through its descriptor, got both .gz files; the decoy is what was read.
                let decoy = try runTool("/usr/bin/gzip", ["-dc", scratch.path + "/tree/a.orig/zz-secret.gz"])
                #expect(decoy.output == Data("decoy-xyz\n".utf8), "attempt \(attempt): stderr: \(run.stderr)")
                #expect(run.status == 0, "attempt \(attempt): stderr: \(run.stderr)")
                if !run.stderr.isEmpty || run.status != 0 { break }
            }
        }

        @Test("a folder renamed mid-run holds only originals and finished .gz files afterwards",
              arguments: OutputPlacementTests.temporaries)
        func folderRenamed(_ environment: [String: String]) throws {
            let scratch = try Scratch()
            try scratch.file("tree/a/0-big.txt", DuringRunTests.slowFile(megabytes: 4))
            for index in 0..<5 { try scratch.file("tree/a/small-\(index).txt", Sample.text(20_000, seed: UInt64(index))) }
            let (process, out, err) = try SqueezerProcess.start(
                ["--jobs", "1", "--level", "9", "-r", scratch.path + "/tree"], environment: environment, in: scratch)
            #expect(DuringRunTests.waitForTemporaryFile(in: scratch.path + "/tree/a", process: process))
            try FileManager.default.moveItem(atPath: scratch.path + "/tree/a", toPath: scratch.path + "/tree/b")
            process.waitUntilExit()
            let run = try SqueezerProcess.collect(process, out, err)
            let names = try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/tree/b").sorted()
            #expect(!names.contains { $0.hasPrefix(".") }, "left in the moved folder: \(names)")
            for name in names where name.hasSuffix(".gz") {
                #expect(try runTool("/usr/bin/gzip", ["-t", scratch.path + "/tree/b/" + name]).status == 0, "\(name)")
            }
            // Through the folder's descriptor, the run finished every file where the folder went.
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(names.count == 12, "\(names)")
        }

        @Test("a file replaced mid-run by another of the same size is named as replaced, never compressed")
        func fileReplaced() throws {
            let scratch = try Scratch()
            // Two big files: with --jobs 1, two units are handed out at once
            // and either may reach the lane first, so zz.txt, the third,
            // starts only after a big one is done, well after the swap.
            try scratch.file("tree/0-big.txt", DuringRunTests.slowFile(megabytes: 2))
            try scratch.file("tree/1-big.txt", DuringRunTests.slowFile(megabytes: 2))
            try scratch.file("tree/zz.txt", Data("original-1\n".utf8))
            let (process, out, err) = try SqueezerProcess.start(
                ["--jobs", "1", "--level", "9", "--segment-kib", "1048576", scratch.path + "/tree"], in: scratch)
            #expect(DuringRunTests.waitForTemporaryFile(in: scratch.path + "/tree", process: process))
            try scratch.file("swap.txt", Data("replaced-2\n".utf8))
            #expect(rename(scratch.path + "/swap.txt", scratch.path + "/tree/zz.txt") == 0)
            process.waitUntilExit()
            let run = try SqueezerProcess.collect(process, out, err)
            #expect(run.status == 1)
            #expect(run.stderr.contains("zz.txt: the file was replaced during the run (another file has its name now); left alone"),
                    "stderr: \(run.stderr)")
            #expect(try scratch.listing("tree") == ["0-big.txt", "0-big.txt.gz", "1-big.txt", "1-big.txt.gz", "zz.txt"])
        }

        @Test("40 files deeper than 4096 bytes of path are all compressed")
        func deepPaths() throws {
            let scratch = try Scratch()
            let component = String(repeating: "d", count: 200)
            var folder = open(scratch.path, O_RDONLY | O_DIRECTORY)
            #expect(mkdirat(folder, "in", 0o755) == 0)
            var next = openat(folder, "in", O_RDONLY | O_DIRECTORY)
            close(folder)
            folder = next
            for _ in 0..<22 {  // 22 × 201 bytes: more than 4096 below "in"
                #expect(mkdirat(folder, component, 0o755) == 0)
                next = openat(folder, component, O_RDONLY | O_DIRECTORY)
                close(folder)
                folder = next
            }
            defer { close(folder) }
            let data = Sample.text(2_000)
            for index in 0..<40 {
                let file = openat(folder, "f\(index).txt", O_WRONLY | O_CREAT, 0o644)
                data.withUnsafeBytes { _ = write(file, $0.baseAddress, $0.count) }
                close(file)
            }
            let run = try SqueezerProcess.run(["-r", scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.stdout.contains("Squeezed 40 files"))
            let missing = (0..<40).filter { index in
                var info = stat()
                return fstatat(folder, "f\(index).txt.gz", &info, 0) != 0
            }
            #expect(missing.isEmpty, "no .gz for files \(missing)")
            // Scratch's removal (FileManager) copes with the depth itself.
        }
    }
}
