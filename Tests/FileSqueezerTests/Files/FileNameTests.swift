import Testing
@testable import FileSqueezerCore
import TestSupport

/// The bridge between name bytes and the strings messages and `--json` carry.
@Suite("FileName")
struct FileNameTests {
    @Test("UTF-8 names are themselves; invalid bytes become U+EF00+byte; every name round-trips", arguments: [
        (Array("plain.txt".utf8), "plain.txt"),
        (Array("é—😀".utf8), "é—😀"),
        ([0x63, 0x61, 0x66, 0xE9], "caf\u{EFE9}"),
        ([0x6B, 0xFF], "k\u{EFFF}"),
        ([0x6B, 0xEF, 0xBF, 0xBD], "k\u{FFFD}"),
        // A real U+EF80 (EE BE 80) is escaped byte by byte, so it cannot be mistaken for the byte 0x80.
        ([0xEE, 0xBE, 0x80], "\u{EFEE}\u{EFBE}\u{EF80}"),
        // Overlong, surrogate and truncated sequences are not UTF-8.
        ([0xC0, 0xAF], "\u{EFC0}\u{EFAF}"),
        ([0xED, 0xA0, 0x80], "\u{EFED}\u{EFA0}\u{EF80}"),
        ([0x61, 0xE2, 0x82], "a\u{EFE2}\u{EF82}"),
    ])
    func roundTrip(_ bytes: [UInt8], _ shown: String) {
        #expect(FileName.display(bytes) == shown)
        #expect(FileName.bytes(shown) == bytes)
    }

    @Test("every two-byte name round-trips")
    func exhaustive() {
        for first in 0...255 {
            for second in 0...255 {
                let bytes = [UInt8(first), UInt8(second)]
                #expect(FileName.bytes(FileName.display(bytes)) == bytes)
            }
        }
    }
}
