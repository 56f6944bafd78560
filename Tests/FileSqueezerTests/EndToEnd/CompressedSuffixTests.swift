import Testing
import TestSupport

extension EndToEnd {
    /// Files gzip takes for compressed already by their suffix are skipped
    /// with a note, as gzip does (checked against gzip 1.12 with real files):
    /// `.gz`, `.tgz`, `.taz`, `-gz`, `.z`, `-z`, `_z` in any case. Other
    /// archives (`.zip`, `.bz2`, `.gzip`) are compressed, as gzip does, and
    /// so is a file named just `.gz`.
    @Suite("End to end: already-compressed suffixes")
    struct CompressedSuffixTests {
        static let skipped = [
            "a.gz": ".gz", "b.tgz": ".tgz", "c.taz": ".taz", "d.GZ": ".GZ", "e.TGZ": ".TGZ", "f-gz": "-gz",
            "g.z": ".z", "h.Z": ".Z", "i_z": "_z", "j-z": "-z", "k.Taz": ".Taz", "p.tar.gz": ".gz",
        ]
        static let compressed = ["l.zip", "m.bz2", "o.gzip", "q.gz.txt", ".gz"]

        @Test("each suffix gzip skips is skipped with a note naming it; the rest are compressed; exit 0",
              arguments: [[], ["--force"]])
        func suffixes(_ flags: [String]) throws {
            let scratch = try Scratch()
            for name in Array(Self.skipped.keys) + Self.compressed { try scratch.file("in/" + name, Sample.text(500)) }
            let run = try SqueezerProcess.run(flags + [scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            for (name, suffix) in Self.skipped {
                #expect(run.stderr.contains("file-squeezer: \(name): already has \(suffix) suffix - ignored\n"), "\(name)")
            }
            #expect(run.stdout.contains("Squeezed \(Self.compressed.count) files"))
            let expected = Array(Self.skipped.keys) + Self.compressed + Self.compressed.map { $0 + ".gz" }
            #expect(try scratch.listing("in") == expected.sorted())
        }

        @Test("gzip itself skips the same names, so the list matches the gzip on this machine",
              .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/gzip")))
        func sameAsGzip() throws {
            let scratch = try Scratch()
            for name in Array(Self.skipped.keys) + Self.compressed { try scratch.file("gzip/" + name, Sample.text(500)) }
            for name in Array(Self.skipped.keys) + Self.compressed {
                _ = try runTool("/usr/bin/gzip", ["-k", "-q", scratch.path + "/gzip/" + name])
            }
            let expected = Array(Self.skipped.keys) + Self.compressed + Self.compressed.map { $0 + ".gz" }
            #expect(try scratch.listing("gzip") == expected.sorted())
        }
    }
}
