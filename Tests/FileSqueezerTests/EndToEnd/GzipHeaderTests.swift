import Testing
@testable import FileSqueezerCore
import TestSupport

extension EndToEnd {
    /// gzip's header conventions: the original's name and modification time
    /// are stored by default (`-N`), neither with `-n`, on both the whole-file
    /// path (`--strategy main-actor`) and the segmented one (`parallel`), and
    /// `gzip -d` still restores the original.
    @Suite("End to end: gzip header name and time")
    struct GzipHeaderTests {
        /// 2020-09-13 12:26:40 UTC, with nanoseconds the header cannot keep.
        static let modified = (1_600_000_000, 123_456_789)

        /// A small file (one write) and a large one (`--segment-kib 4`: five segments).
        func makeInput(_ scratch: Scratch) throws -> [String: Data] {
            let inputs = ["notes.txt": Sample.text(1000), "large.log": Sample.text(5 * 4096 - 7, seed: 3)]
            for (name, data) in inputs {
                let path = try scratch.file("in/" + name, data)
                try setTimes(path, access: (1_500_000_000, 0), modification: Self.modified)
            }
            return inputs
        }

        func squeeze(_ scratch: Scratch, _ flags: [String], strategy: Strategy = .parallel) throws {
            let run = try SqueezerProcess.run(
                flags + ["--quiet", "--strategy", strategy.rawValue, "--segment-kib", "4", scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
        }

        func expectDecompresses(_ scratch: Scratch, _ inputs: [String: Data]) throws {
            for (name, data) in inputs {
                let unpacked = try runTool("/usr/bin/gzip", ["-dc", scratch.path + "/in/" + name + ".gz"])
                #expect(unpacked.status == 0 && unpacked.output == data, "gzip -dc \(name).gz")
            }
        }

        @Test("by default (and with -N / --name) the header stores the name and the modification time",
              arguments: [[], ["-N"], ["-n", "--name"]], [Strategy.parallel, .mainActor])
        func storesNameAndTime(_ flags: [String], _ strategy: Strategy) throws {
            let scratch = try Scratch()
            let inputs = try makeInput(scratch)
            try squeeze(scratch, flags, strategy: strategy)
            for name in inputs.keys {
                let header = try #require(try GzipHeader(path: scratch.path + "/in/" + name + ".gz"))
                #expect(header.flags == 0x08, "\(name): FLG.FNAME only")
                #expect(header.name == Array(name.utf8), "\(name): FNAME")
                #expect(header.modificationTime == UInt32(Self.modified.0), "\(name): MTIME")
            }
            try expectDecompresses(scratch, inputs)
        }

        @Test("-n / --no-name stores neither: no FNAME, MTIME 0", arguments: [["-n"], ["--no-name"], ["-N", "-n"]], [Strategy.parallel, .mainActor])
        func storesNeither(_ flags: [String], _ strategy: Strategy) throws {
            let scratch = try Scratch()
            let inputs = try makeInput(scratch)
            try squeeze(scratch, flags, strategy: strategy)
            for name in inputs.keys {
                let header = try #require(try GzipHeader(path: scratch.path + "/in/" + name + ".gz"))
                #expect(header == GzipHeader(flags: 0, modificationTime: 0, name: nil), "\(name)")
            }
            try expectDecompresses(scratch, inputs)
        }

        @Test("gzip -N -d restores the stored name and time from a renamed .gz")
        func gzipRestoresName() throws {
            let scratch = try Scratch()
            let inputs = try makeInput(scratch)
            try squeeze(scratch, [])
            try FileManager.default.createDirectory(atPath: scratch.path + "/restored", withIntermediateDirectories: true)
            for (index, (name, data)) in inputs.sorted(by: { $0.key < $1.key }).enumerated() {
                let renamed = scratch.path + "/restored/renamed\(index).gz"
                try FileManager.default.copyItem(atPath: scratch.path + "/in/" + name + ".gz", toPath: renamed)
                #expect(try runTool("/usr/bin/gzip", ["-N", "-d", renamed]).status == 0)
                let restored = scratch.path + "/restored/" + name
                #expect(try Data(contentsOf: URL(fileURLWithPath: restored)) == data, "gzip -N -d wrote \(name)")
                #expect(try fileStatus(restored).st_mtim.tv_sec == Self.modified.0, "\(name): time from the header")
            }
        }
    }
}
