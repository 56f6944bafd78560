@testable import ConcurrencyToolkit
import Testing

/// The cursor on hand-made bytes: every encoding, and every way a section
/// can be cut short, which must stop the read, never crash or loop.
@Suite struct DWARFCursorTests {
    @Test func readsLittleEndianIntegersOfEverySize() {
        withSection([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b]) { bytes in
            var cursor = DWARFCursor(bytes)
            #expect(cursor.u8() == 0x01)
            #expect(cursor.u16() == 0x0302)
            #expect(cursor.unsigned(size: 3) == 0x06_0504)
            #expect(cursor.u32() == 0x0a09_0807)
            #expect(cursor.isValid && cursor.remaining == 1)
        }
    }

    @Test func readsLEB128AsTheStandardsExamples() {
        // DWARF 5, tables 7.6 and 7.7.
        let unsigned: [(bytes: [UInt8], value: UInt64)] = [
            ([2], 2), ([127], 127), ([0x80, 1], 128), ([0x81, 1], 129), ([0x82, 1], 130), ([0xb9, 0x64], 12857),
            ([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01], .max),
        ]
        for (bytes, value) in unsigned {
            withSection(bytes) { section in
                var cursor = DWARFCursor(section)
                #expect(cursor.uleb() == value)
                #expect(cursor.isAtEnd && cursor.isValid)
            }
        }
        let signed: [(bytes: [UInt8], value: Int64)] = [
            ([2], 2), ([0x7e], -2), ([0xff, 0], 127), ([0x81, 0x7f], -127), ([0x80, 1], 128),
            ([0x80, 0x7f], -128), ([0x81, 1], 129), ([0xff, 0x7e], -129),
        ]
        for (bytes, value) in signed {
            withSection(bytes) { section in
                var cursor = DWARFCursor(section)
                #expect(cursor.sleb() == value)
                #expect(cursor.isAtEnd && cursor.isValid)
            }
        }
    }

    @Test func anOverlongLEB128IsConsumedWhole() {
        // 12 bytes encoding 0: bits past the 64th are dropped, the read ends after the last byte.
        withSection(Array(repeating: 0x80, count: 11) + [0x00, 0x2a]) { section in
            var cursor = DWARFCursor(section)
            #expect(cursor.uleb() == 0)
            #expect(cursor.u8() == 0x2a)
        }
    }

    @Test func aReadPastTheEndStopsTheCursor() {
        withSection([0x01, 0x02, 0x03]) { section in
            var cursor = DWARFCursor(section)
            #expect(cursor.u32() == 0)
            #expect(!cursor.isValid && cursor.isAtEnd)
            #expect(cursor.u8() == 0)
        }
        withSection([0x80, 0x80]) { section in  // a LEB128 with no last byte
            var cursor = DWARFCursor(section)
            #expect(cursor.uleb() == 0)
            #expect(!cursor.isValid)
        }
        withSection(Array("abc".utf8)) { section in  // a string with no NUL
            var cursor = DWARFCursor(section)
            #expect(cursor.cString() == nil)
            #expect(!cursor.isValid)
        }
        withSection([0x10, 0, 0, 0, 0]) { section in  // skip further than the section
            var cursor = DWARFCursor(section)
            cursor.skip(5)
            #expect(cursor.isValid && cursor.isAtEnd)
            cursor.skip(1)
            #expect(!cursor.isValid)
        }
    }

    @Test func readsStringsAndStopsAtTheUnitsEnd() {
        withSection(Array("main.swift\0lib\0tail\0".utf8)) { section in
            var cursor = DWARFCursor(section, end: 15)
            #expect(cursor.cString() == "main.swift")
            #expect(cursor.cString() == "lib")
            #expect(cursor.cString() == nil)  // "tail" is past the end given
            #expect(DWARFCursor.string(in: section, at: 11) == "lib")
            #expect(DWARFCursor.string(in: section, at: 99) == nil)
            #expect(DWARFCursor.string(in: nil, at: 0) == nil)
        }
    }

    @Test func readsThirtyTwoAndSixtyFourBitUnitLengths() {
        var units = DWARFTestBytes()
        units.unit { $0.u32(0xdead_beef) }
        units.unit(is64: true) { $0.u64(0x1122_3344_5566_7788) }
        withSection(units.bytes) { section in
            var cursor = DWARFCursor(section)
            let first = cursor.unitLength()
            #expect(first?.is64 == false && first?.end == 8)
            #expect(cursor.offset(is64: false) == 0xdead_beef)
            let second = cursor.unitLength()
            #expect(second?.is64 == true && second?.end == section.count)
            #expect(cursor.offset(is64: true) == 0x1122_3344_5566_7788)
        }
    }

    @Test func aReservedOrTruncatedLengthYieldsWhatItCan() {
        withSection([0xf0, 0xff, 0xff, 0xff, 0, 0, 0, 0]) { section in  // 0xfffffff0 is reserved
            var cursor = DWARFCursor(section)
            #expect(cursor.unitLength() == nil)
            #expect(cursor.isAtEnd)
        }
        withSection([0x40, 0, 0, 0, 1, 2]) { section in  // says 64 bytes, holds 2: clamped
            var cursor = DWARFCursor(section)
            #expect(cursor.unitLength()?.end == 6)
        }
    }
}
