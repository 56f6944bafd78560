import Testing
@testable import FileSqueezerCore
import TestSupport

extension EndToEnd {
    /// The `.gz` bytes of every strategy, pinned: each run's outputs are
    /// fingerprinted (CRC-32 and length of every `.gz`) and compared with the
    /// fingerprints the code wrote before the whole-file and the segmented
    /// paths became one writer (issue 17). A change to the bytes — header,
    /// deflate stream, its flushes, the trailer — fails here.
    @Suite("End to end: .gz bytes unchanged (golden)")
    struct GoldenOutputTests {
        /// Around the 256 KiB chunk and the 1 MiB segment, empty, one byte,
        /// incompressible; 3 MB is split by `parallel` and streamed whole by
        /// the other two.
        static let inputs: [(String, Data)] = [
            ("empty.txt", Data()),
            ("one.txt", Data("a".utf8)),
            ("small.txt", Sample.text(1000, seed: 11)),
            ("chunk.txt", Sample.text(FileCompressor.defaultChunkSize, seed: 12)),
            ("chunk-plus-one.txt", Sample.text(FileCompressor.defaultChunkSize + 1, seed: 13)),
            ("noise.bin", Sample.random(800_000, seed: 14)),
            ("segment.txt", Sample.text(FileCompressor.defaultSegmentSize, seed: 15)),
            ("large.txt", Sample.text(3_000_000, seed: 16)),
        ]

        /// What the code before issue 17's one-writer change wrote, per run:
        /// `name crc32 length` for every `.gz`, sorted by name.
        static let golden: [String: String] = [
            "main-actor":
                "chunk-plus-one.txt.gz 99516848 36824; " +
                "chunk.txt.gz eb51df9c 36836; " +
                "empty.txt.gz 23c356de 30; " +
                "large.txt.gz 1fc61ad 417246; " +
                "noise.bin.gz d6a1a08e 800273; " +
                "one.txt.gz a727cf73 29; " +
                "segment.txt.gz d638561a 145998; " +
                "small.txt.gz ccb36efe 277",
            "actor":
                "chunk-plus-one.txt.gz 99516848 36824; " +
                "chunk.txt.gz eb51df9c 36836; " +
                "empty.txt.gz 23c356de 30; " +
                "large.txt.gz 1fc61ad 417246; " +
                "noise.bin.gz d6a1a08e 800273; " +
                "one.txt.gz a727cf73 29; " +
                "segment.txt.gz d638561a 145998; " +
                "small.txt.gz ccb36efe 277",
            "parallel":
                "chunk-plus-one.txt.gz 99516848 36824; " +
                "chunk.txt.gz eb51df9c 36836; " +
                "empty.txt.gz 23c356de 30; " +
                "large.txt.gz 325eb64c 417285; " +
                "noise.bin.gz d6a1a08e 800273; " +
                "one.txt.gz a727cf73 29; " +
                "segment.txt.gz d638561a 145998; " +
                "small.txt.gz ccb36efe 277",
            "main-actor --level 1 --no-name":
                "chunk-plus-one.txt.gz 3cd16232 51434; " +
                "chunk.txt.gz dbb3c7a2 51564; " +
                "empty.txt.gz c5e84b84 20; " +
                "large.txt.gz 14bab01 587561; " +
                "noise.bin.gz 47b389fa 800263; " +
                "one.txt.gz 2dfd216a 21; " +
                "segment.txt.gz 39af7b19 205517; " +
                "small.txt.gz 158c30ff 287",
            "actor --level 9":
                "chunk-plus-one.txt.gz 557c6f57 33971; " +
                "chunk.txt.gz 5b3f93e7 33974; " +
                "empty.txt.gz d939f5e 30; " +
                "large.txt.gz f3cce1ca 381554; " +
                "noise.bin.gz f21bdb4b 800273; " +
                "one.txt.gz 43e3ce0e 29; " +
                "segment.txt.gz 5c97bb65 133798; " +
                "small.txt.gz 33bdc3a9 277",
            "parallel --level 9 --no-name --segment-kib 64":
                "chunk-plus-one.txt.gz 3d37c1b6 33969; " +
                "chunk.txt.gz 210c6cbb 33990; " +
                "empty.txt.gz 2ad5ee64 20; " +
                "large.txt.gz 2ea710c1 382748; " +
                "noise.bin.gz 31f2ff8f 800323; " +
                "one.txt.gz 8d18feb7 21; " +
                "segment.txt.gz af97f874 134162; " +
                "small.txt.gz 5f0ccedb 267",
        ]

        func fingerprint(_ folder: String) throws -> String {
            try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".gz") }.sorted()
                .map { name in
                    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
                    return "\(name) \(String(GzipFormat.crc(of: bytes), radix: 16)) \(bytes.count)"
                }
                .joined(separator: "; ")
        }

        @Test("every strategy writes the same .gz bytes as before, and gzip restores the originals",
              arguments: Array(golden.keys).sorted())
        func sameBytes(_ run: String) throws {
            let scratch = try Scratch()
            let stamp = Date(timeIntervalSince1970: 1_650_000_000)
            for (name, data) in Self.inputs {
                let path = try scratch.file("in/" + name, data)
                try FileManager.default.setAttributes([.modificationDate: stamp], ofItemAtPath: path)
            }
            let words = run.split(separator: " ").map(String.init)
            let result = try SqueezerProcess.run(
                ["--quiet", "--jobs", "2", "--strategy", words[0]] + words.dropFirst() + [scratch.path + "/in"],
                in: scratch)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let actual = try fingerprint(scratch.path + "/in")
            #expect(actual == Self.golden[run], "\(run): \(actual)")
            for (name, data) in Self.inputs {
                let gz = scratch.path + "/in/" + name + ".gz"
                #expect(try runTool("/usr/bin/gzip", ["-t", gz]).status == 0, "gzip -t \(name).gz")
                #expect(try runTool("/usr/bin/gzip", ["-dc", gz]).output == data, "gunzip -c \(name).gz")
            }
        }
    }
}
