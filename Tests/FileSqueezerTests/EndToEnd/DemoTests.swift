import Testing
import TestSupport

extension EndToEnd {
    @Suite("End to end: --demo and --make-corpus")
    struct DemoTests {
        @Test("--demo makes a folder in TMPDIR, squeezes it, and says where it is")
        func demo() throws {
            let scratch = try Scratch()
            let run = try SqueezerProcess.run(["--demo", "--corpus-mb", "2"], environment: ["TMPDIR": scratch.path], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let folders = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix("file-squeezer-demo-") }
            #expect(folders.count == 1)
            let folder = scratch.path + "/" + (folders.first ?? "")
            #expect(run.stdout.contains("The demo folder is \(folder)"))
            let names = try FileManager.default.contentsOfDirectory(atPath: folder)
            let originals = names.filter { !$0.hasSuffix(".gz") }
            #expect(originals.count == 17)
            for name in originals {
                let unpacked = try runTool("/usr/bin/gzip", ["-dc", folder + "/" + name + ".gz"])
                #expect(unpacked.output == (try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))))
            }
        }

        @Test("--demo run twice reuses one folder: one corpus in TMPDIR, not two")
        func demoTwice() throws {
            let scratch = try Scratch()
            for _ in 0..<2 {
                let run = try SqueezerProcess.run(["--demo", "--corpus-mb", "1"], environment: ["TMPDIR": scratch.path], in: scratch)
                #expect(run.status == 0, "stderr: \(run.stderr)")
            }
            let folders = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix("file-squeezer-demo-") }
            #expect(folders == ["file-squeezer-demo-\(getuid())"])
            let names = try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/" + (folders.first ?? ""))
            #expect(names.count == 34)  // 17 originals and their .gz, once
        }

        @Test("--demo refuses a demo path that is not a folder of its own, and empties nothing")
        func demoRefusesALink() throws {
            let scratch = try Scratch()
            let victim = scratch.path + "/victim"
            try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: true)
            #expect(FileManager.default.createFile(atPath: victim + "/keep.txt", contents: Data("keep".utf8)))
            try FileManager.default.createSymbolicLink(
                atPath: scratch.path + "/file-squeezer-demo-\(getuid())", withDestinationPath: victim)
            let run = try SqueezerProcess.run(["--demo", "--corpus-mb", "1"], environment: ["TMPDIR": scratch.path], in: scratch)
            #expect(run.status == 1)
            #expect(run.stderr.contains("is not a folder of yours"), "stderr: \(run.stderr)")
            #expect(FileManager.default.fileExists(atPath: victim + "/keep.txt"))
        }

        @Test("--make-corpus writes the same mixed corpus every time, of about the asked size")
        func corpus() throws {
            let scratch = try Scratch()
            #expect(try SqueezerProcess.run(["--make-corpus", scratch.path + "/one", "--corpus-mb", "3"], in: scratch).status == 0)
            #expect(try SqueezerProcess.run(["--make-corpus", scratch.path + "/two", "--corpus-mb", "3"], in: scratch).status == 0)
            let one = try scratch.snapshot("one"), two = try scratch.snapshot("two")
            #expect(one == two)
            let total = one.values.reduce(0) { $0 + $1.count }
            #expect(abs(total - 3_000_000) < 100)
            #expect(one.keys.contains("empty.txt") && one.keys.contains { $0.hasSuffix(".bin") })
        }
    }
}
