import Testing
@testable import FileSqueezerCore
import TestSupport

@Suite("gzip format: header fields and gzip's suffix rule")
struct GzipFormatTests {
    @Test("with a name: FLG.FNAME, MTIME little-endian, XFL for the level, OS Unix, the name zero-terminated")
    func headerWithName() {
        let header = GzipFormat.header(level: 9, name: Array("caf\u{E9}.txt".utf8), modificationTime: 0x6543_2101)
        #expect(Array(header.prefix(10)) == [0x1F, 0x8B, 8, 0x08, 0x01, 0x21, 0x43, 0x65, 2, 3])
        #expect(Array(header.dropFirst(10)) == Array("caf\u{E9}.txt".utf8) + [0])
        #expect(GzipFormat.header(level: 1) == [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 4, 3])
    }

    @Test("a name's raw bytes are stored as they are, not as UTF-8")
    func rawName() {
        let name: [UInt8] = [0x6B, 0xFF, 0x2E, 0x6C, 0x6F, 0x67]  // "k\xff.log"
        #expect(Array(GzipFormat.header(level: 6, name: name).dropFirst(10)) == name + [0])
        #expect(GzipFormat.storedName(ofPath: Array("/srv/".utf8) + name) == name)
        #expect(GzipFormat.storedName(ofPath: Array("a.log".utf8)) == Array("a.log".utf8))
    }

    @Test("MTIME is 0 when the time does not fit in 32 bits, as gzip does")
    func timeStamp() {
        #expect(GzipFormat.timeStamp(seconds: 1_600_000_000) == 1_600_000_000)
        #expect(GzipFormat.timeStamp(seconds: -1) == 0)
        #expect(GzipFormat.timeStamp(seconds: 1 << 32) == 0)
    }

    @Test("compressed suffixes, in any case, only after at least one other byte", arguments: [
        ("a.gz", ".gz"), ("b.TGZ", ".TGZ"), ("c.taz", ".taz"), ("x.tar.Gz", ".Gz"), ("d-gz", "-gz"), ("e.Z", ".Z"),
        ("f_z", "_z"), ("g-Z", "-Z"), ("h.z", ".z"),
    ])
    func skipped(_ name: String, _ suffix: String) {
        #expect(GzipFormat.compressedSuffix(of: Array(name.utf8)) == suffix)
    }

    @Test("every suffix ends in z, which lets most names be answered by their last byte")
    func suffixesEndInZ() {
        #expect(GzipFormat.compressedSuffixes.allSatisfy { $0.last == UInt8(ascii: "z") })
        // Bytes with z's low bits but the high bit set are not z: 0xDA, 0xFA.
        #expect(GzipFormat.compressedSuffix(of: Array("a.g".utf8) + [0xDA]) == nil)
        #expect(GzipFormat.compressedSuffix(of: Array("a.g".utf8) + [0xFA]) == nil)
    }

    @Test("names gzip compresses", arguments: [".gz", ".z", "-z", "a.gzip", "a.zip", "a.gz.txt", "a.bz2", "az", "a.tgzx"])
    func compressed(_ name: String) {
        #expect(GzipFormat.compressedSuffix(of: Array(name.utf8)) == nil)
    }
}
