import Testing
@testable import FileSqueezerCore
import TestSupport

extension EndToEnd {
    /// The outputs are real gzip: system gzip verifies and decompresses them.
    @Suite("End to end: gzip round trip")
    struct RoundTripTests {
        /// Larger than the 256 KiB chunk, not a multiple of it.
        static let bigSize = FileCompressor.defaultChunkSize * 3 + 12_345

        func makeInput(_ scratch: Scratch) throws {
            try scratch.file("in/empty.txt", Data())
            try scratch.file("in/small.txt", Sample.text(1000))
            try scratch.file("in/big.txt", Sample.text(Self.bigSize))
            try scratch.file("in/noise.bin", Sample.random(Self.bigSize))
            try scratch.file("in/exact.txt", Sample.text(FileCompressor.defaultChunkSize, seed: 7))
        }

        func expectRoundTrip(_ scratch: Scratch, originals: [String: Data], outputFolder: String) throws {
            for (name, original) in originals {
                let gz = scratch.url.appendingPathComponent(outputFolder).appendingPathComponent(name + ".gz").path
                #expect(try runTool("/usr/bin/gzip", ["-t", gz]).status == 0, "gzip -t \(name).gz")
                let unpacked = try runTool("/usr/bin/gzip", ["-dc", gz])
                #expect(unpacked.status == 0)
                #expect(unpacked.output == original, "gunzip -c \(name).gz reproduces \(name)")
            }
        }

        /// Whole files of at most `Deflater.tinyInputLimit` bytes go through
        /// a second zlib stream (memory level 4): files either side of the
        /// limit, text and noise, and one whose size is the limit exactly.
        @Test("files either side of the tiny-stream limit decompress to the originals")
        func tinyStreamLimit() throws {
            let scratch = try Scratch()
            let limit = Int(Deflater.tinyInputLimit)
            for size in [1, 300, limit - 1, limit, limit + 1, 4096] {
                try scratch.file("in/text-\(size).txt", Sample.text(size, seed: UInt64(size)).prefix(size))
                try scratch.file("in/noise-\(size).bin", Sample.random(size, seed: UInt64(size)).prefix(size))
            }
            let originals = try scratch.snapshot("in")
            let run = try SqueezerProcess.run(["--jobs", "2", scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            try expectRoundTrip(scratch, originals: originals, outputFolder: "in")
            #expect(run.stdout.contains("Squeezed \(originals.count) files"))
        }

        @Test("every strategy writes gzip that decompresses to the originals", arguments: [
            (Strategy.mainActor, DeflatePlacement.lanes), (.actor, .lanes), (.parallel, .lanes), (.parallel, .pool),
        ])
        func strategies(_ strategy: Strategy, _ placement: DeflatePlacement) throws {
            let scratch = try Scratch()
            try makeInput(scratch)
            let originals = try scratch.snapshot("in")
            let run = try SqueezerProcess.run(
                ["--strategy", strategy.rawValue, "--deflate-on", placement.rawValue, "--jobs", "2", scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            try expectRoundTrip(scratch, originals: originals, outputFolder: "in")
            #expect(try scratch.snapshot("in").filter { !$0.key.hasSuffix(".gz") } == originals)
            // Not a TTY: exactly one line per finished file, then the summary.
            for name in originals.keys { #expect(run.stdout.contains("\(name) -> \(name).gz")) }
            #expect(run.stdout.contains("Squeezed 5 files"))
            #expect(run.stdout.contains("Strategy \(strategy.rawValue)"))
        }

        @Test("files split into 4 KiB segments round trip: exact multiples, one byte over, under one segment, empty",
              arguments: [DeflatePlacement.lanes, .pool])
        func segments(_ placement: DeflatePlacement) throws {
            let scratch = try Scratch()
            let segment = 4096
            let inputs: [String: Data] = [
                "empty.txt": Data(),
                "under.txt": Sample.text(segment - 1),
                "exact.txt": Sample.text(segment, seed: 3),
                "multiple.txt": Sample.text(8 * segment, seed: 4),
                "one-over.txt": Sample.text(8 * segment + 1, seed: 5),
                "multiple.bin": Sample.random(8 * segment, seed: 6),
                "one-over.bin": Sample.random(8 * segment + 1, seed: 7),
                "big.txt": Sample.text(Self.bigSize, seed: 8),
            ]
            for (name, data) in inputs { try scratch.file("in/" + name, data) }
            let run = try SqueezerProcess.run(
                ["--json", "--segment-kib", "4", "--jobs", "3", "--deflate-on", placement.rawValue, scratch.path + "/in"],
                in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            try expectRoundTrip(scratch, originals: inputs, outputFolder: "in")
            let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
            #expect(report.compressed == inputs.count)
            for file in report.files {
                let size = try Data(contentsOf: URL(fileURLWithPath: file.destination)).count
                #expect(file.bytesOut == Int64(size), "\(file.path): bytes out")
                #expect(file.bytesIn == Int64(inputs[file.path]?.count ?? -1))
            }
            #expect(try scratch.listing("in").count == 2 * inputs.count, "no temporary files left")
        }

        @Test("--level 1 and 9 both round trip, and 9 is no larger than 1")
        func levels() throws {
            let scratch = try Scratch()
            try scratch.file("one/a.txt", Sample.text(Self.bigSize))
            try scratch.file("nine/a.txt", Sample.text(Self.bigSize))
            #expect(try SqueezerProcess.run(["--level", "1", "--quiet", scratch.path + "/one"], in: scratch).status == 0)
            #expect(try SqueezerProcess.run(["--level", "9", "--quiet", scratch.path + "/nine"], in: scratch).status == 0)
            try expectRoundTrip(scratch, originals: ["a.txt": Sample.text(Self.bigSize)], outputFolder: "one")
            try expectRoundTrip(scratch, originals: ["a.txt": Sample.text(Self.bigSize)], outputFolder: "nine")
            let one = try Data(contentsOf: scratch.url.appendingPathComponent("one/a.txt.gz")).count
            let nine = try Data(contentsOf: scratch.url.appendingPathComponent("nine/a.txt.gz")).count
            #expect(nine <= one)
            #expect(one < Self.bigSize / 2)
        }

        @Test("--recursive --output mirrors subfolders and leaves the input folder untouched")
        func recursiveOutput() throws {
            let scratch = try Scratch()
            try scratch.file("in/top.txt", Sample.text(5000))
            try scratch.file("in/sub/deeper/leaf.txt", Sample.text(300_000, seed: 3))
            let before = try scratch.snapshot("in")
            let run = try SqueezerProcess.run(["--recursive", "--output", scratch.path + "/out", scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(try scratch.snapshot("in") == before)
            #expect(try scratch.listing("out") == ["sub/deeper/leaf.txt.gz", "top.txt.gz"])
            try expectRoundTrip(scratch, originals: before, outputFolder: "out")
        }

        @Test("without --recursive, subfolders are skipped with a note")
        func notRecursive() throws {
            let scratch = try Scratch()
            try scratch.file("in/top.txt", Sample.text(5000))
            try scratch.file("in/sub/leaf.txt", Sample.text(5000))
            let run = try SqueezerProcess.run([scratch.path + "/in"], in: scratch)
            #expect(run.status == 0)
            #expect(run.stderr.contains("sub: is a folder (use --recursive) - ignored"))
            #expect(try scratch.listing("in") == ["sub/leaf.txt", "top.txt", "top.txt.gz"])
        }

        @Test("--json prints a summary that decodes, with every file's outcome")
        func json() throws {
            let scratch = try Scratch()
            try makeInput(scratch)
            let run = try SqueezerProcess.run(["--json", scratch.path + "/in"], in: scratch)
            #expect(run.status == 0)
            let report = try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
            #expect(report.compressed == 5)
            #expect(report.failed == 0)
            #expect(report.bytesIn == Int64(1000 + 2 * Self.bigSize + FileCompressor.defaultChunkSize))
            #expect(report.files.map(\.path) == ["big.txt", "empty.txt", "exact.txt", "noise.bin", "small.txt"])
            #expect(report.bytesOut == report.files.reduce(0) { $0 + $1.bytesOut })
            let sizes = try report.files.map { try Data(contentsOf: URL(fileURLWithPath: $0.destination)).count }
            #expect(sizes.map(Int64.init) == report.files.map(\.bytesOut))
        }
    }
}
