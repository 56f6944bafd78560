@testable import ConcurrencyToolkit
import Testing

/// Line programs written by hand, DWARF 4 (32- and 64-bit) and DWARF 5
/// (each directory and file entry form a producer may use), then cut short
/// and damaged: the table finds every row's file and line and stops at
/// each sequence's end.
@Suite struct DWARFLineTableTests {
    /// Opcode base 13, line base -5, line range 14: special opcode
    /// 13 + 14 × address advance + (line advance + 5).
    private static func header(_ bytes: inout DWARFTestBytes, minimumInstructionLength: UInt8) {
        bytes.u8(minimumInstructionLength)
        bytes.u8(1)  // maximum operations per instruction
        bytes.u8(1)  // default is_stmt
        bytes.u8(UInt8(bitPattern: -5))
        bytes.u8(14)
        bytes.u8(13)
        for length: UInt8 in [0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1] { bytes.u8(length) }
    }

    private static func setAddress(_ bytes: inout DWARFTestBytes, _ address: UInt64) {
        bytes.u8(0)
        bytes.uleb(9)
        bytes.u8(2)
        bytes.u64(address)
    }

    private static func endSequence(_ bytes: inout DWARFTestBytes) { bytes.bytes += [0, 1, 1] }

    /// `header` then `program`, with the header length and unit length filled in.
    private static func lineUnit(version: UInt16, is64: Bool, header: (inout DWARFTestBytes) -> Void,
                                 program: (inout DWARFTestBytes) -> Void) -> [UInt8] {
        var unit = DWARFTestBytes()
        unit.unit(is64: is64) { body in
            body.u16(version)
            if version >= 5 { body.bytes += [8, 0] }  // address size, segment selector size
            var rest = DWARFTestBytes()
            header(&rest)
            body.int(UInt64(rest.bytes.count), size: is64 ? 8 : 4)
            body.bytes += rest.bytes
            program(&body)
        }
        return unit.bytes
    }

    /// Two sequences: 0x1000–0x1024 over a.c (in `src`) and b.h (in the
    /// compilation directory), and 0x3000–0x3010 back in a.c.
    static func programV4(is64: Bool = false) -> [UInt8] {
        lineUnit(version: 4, is64: is64, header: { bytes in
            header(&bytes, minimumInstructionLength: 1)
            bytes.cString("src")
            bytes.u8(0)
            for (name, directory) in [("a.c", 1), ("b.h", 0)] as [(String, UInt64)] {
                bytes.cString(name)
                bytes.uleb(directory)
                bytes.bytes += [0, 0]  // modification time, length
            }
            bytes.u8(0)
        }, program: { bytes in
            setAddress(&bytes, 0x1000)
            bytes.u8(3); bytes.sleb(9)  // line 10
            bytes.u8(1)  // row 0x1000 a.c:10
            bytes.u8(13 + 14 * 4 + (1 + 5))  // row 0x1004 a.c:11
            bytes.u8(4); bytes.uleb(2)  // b.h
            bytes.u8(2); bytes.uleb(8)  // 0x100c
            bytes.u8(3); bytes.sleb(5)  // line 16
            bytes.u8(1)  // row 0x100c b.h:16
            bytes.u8(8)  // const_add_pc: +17, 0x101d
            bytes.u8(9); bytes.u16(3)  // fixed_advance_pc: 0x1020
            bytes.u8(3); bytes.sleb(-15)  // line 1
            bytes.u8(1)  // row 0x1020 b.h:1
            bytes.u8(2); bytes.uleb(4)
            endSequence(&bytes)  // 0x1024
            setAddress(&bytes, 0x3000)
            bytes.u8(3); bytes.sleb(99)
            bytes.u8(1)  // row 0x3000 a.c:100
            bytes.u8(2); bytes.uleb(0x10)
            endSequence(&bytes)  // 0x3010
        })
    }

    private func table(_ line: [UInt8], lineStr: [UInt8] = [], str: [UInt8] = []) -> DWARFLineTable? {
        line.withUnsafeBytes { line in
            lineStr.withUnsafeBytes { lineStr in
                str.withUnsafeBytes { str in
                    DWARFLineTable(DWARFSections(line: line, lineStr: lineStr, str: str), at: 0, compilationDirectory: "/work")
                }
            }
        }
    }

    private func locations(_ table: DWARFLineTable?, _ addresses: [UInt64]) -> [String] {
        addresses.map { address in
            guard let location = table?.location(at: address) else { return "-" }
            return "\(location.file ?? "?"):\(location.line.map(String.init) ?? "?")"
        }
    }

    @Test(arguments: [false, true])
    func readsADWARF4Program(is64: Bool) {
        let table = table(Self.programV4(is64: is64))
        #expect(locations(table, [0x1000, 0x1003, 0x1004, 0x100b, 0x100c, 0x101f, 0x1020, 0x1023]) == [
            "/work/src/a.c:10", "/work/src/a.c:10", "/work/src/a.c:11", "/work/src/a.c:11",
            "/work/b.h:16", "/work/b.h:16", "/work/b.h:1", "/work/b.h:1",
        ])
        #expect(locations(table, [0xfff, 0x1024, 0x2000, 0x3000, 0x300f, 0x3010]) == [
            "-", "-", "-", "/work/src/a.c:100", "/work/src/a.c:100", "-",
        ])
        // DWARF 4 counts files from 1, as DW_AT_call_file does.
        #expect(table?.path(ofFile: 1) == "/work/src/a.c")
        #expect(table?.path(ofFile: 0) == nil)
    }

    /// How a DWARF 5 header spells a path, a directory index and a field nobody reads.
    struct FormsV5: Sendable, CustomTestStringConvertible {
        var path: UInt64
        var directoryIndex: UInt64
        var extra: UInt64
        var testDescription: String { "path 0x\(String(path, radix: 16)), index 0x\(String(directoryIndex, radix: 16)), extra 0x\(String(extra, radix: 16))" }
    }

    @Test(arguments: [
        FormsV5(path: DWARFForm.lineStrp, directoryIndex: DWARFForm.udata, extra: DWARFForm.data16),
        FormsV5(path: DWARFForm.string, directoryIndex: DWARFForm.data1, extra: DWARFForm.block),
        FormsV5(path: DWARFForm.strp, directoryIndex: DWARFForm.data2, extra: DWARFForm.data8),
    ])
    func readsADWARF5Program(forms: FormsV5) {
        let strings = Array("/work\0inc\0main.c\0x.h\0".utf8)
        func path(_ bytes: inout DWARFTestBytes, _ text: String, at offset: UInt32) {
            if forms.path == DWARFForm.string { bytes.cString(text) } else { bytes.u32(offset) }
        }
        let line = Self.lineUnit(version: 5, is64: false, header: { bytes in
            Self.header(&bytes, minimumInstructionLength: 4)
            bytes.u8(1)  // directory entry format: a path
            bytes.uleb(1); bytes.uleb(forms.path)
            bytes.uleb(2)
            path(&bytes, "/work", at: 0)
            path(&bytes, "inc", at: 6)
            bytes.u8(3)  // file entry format: path, directory index, extra
            for (type, form) in [(1, forms.path), (2, forms.directoryIndex), (5, forms.extra)] as [(UInt64, UInt64)] {
                bytes.uleb(type); bytes.uleb(form)
            }
            bytes.uleb(2)
            for (name, offset, directory) in [("main.c", 10, 0), ("x.h", 17, 1)] as [(String, UInt32, UInt64)] {
                path(&bytes, name, at: offset)
                bytes.int(directory, size: forms.directoryIndex == DWARFForm.data2 ? 2 : 1)
                switch forms.extra {
                case DWARFForm.data16: bytes.bytes += Array(repeating: 0xab, count: 16)
                case DWARFForm.block: bytes.bytes += [3, 0xab, 0xab, 0xab]
                default: bytes.u64(0xabab)
                }
            }
        }, program: { bytes in
            Self.setAddress(&bytes, 0x4000)
            bytes.u8(4); bytes.uleb(0)  // file 0: the primary file in DWARF 5
            bytes.u8(3); bytes.sleb(4)
            bytes.u8(1)  // row 0x4000 main.c:5
            bytes.u8(2); bytes.uleb(2)  // 2 × 4 bytes: 0x4008
            bytes.u8(4); bytes.uleb(1)
            bytes.u8(3); bytes.sleb(2)
            bytes.u8(1)  // row 0x4008 x.h:7
            bytes.u8(13 + 14 * 1 + (1 + 5))  // row 0x400c x.h:8
            bytes.u8(2); bytes.uleb(1)
            Self.endSequence(&bytes)  // 0x4010
        })
        let table = forms.path == DWARFForm.lineStrp ? table(line, lineStr: strings) : table(line, str: strings)
        #expect(locations(table, [0x3fff, 0x4000, 0x4007, 0x4008, 0x400b, 0x400c, 0x400f, 0x4010]) == [
            "-", "/work/main.c:5", "/work/main.c:5", "/work/inc/x.h:7", "/work/inc/x.h:7",
            "/work/inc/x.h:8", "/work/inc/x.h:8", "-",
        ])
        #expect(table?.path(ofFile: 0) == "/work/main.c")
    }

    /// A section cut anywhere gives the sequences ended before the cut,
    /// and nothing invented after it.
    @Test func aTruncatedProgramKeepsTheSequencesItEnded() {
        let whole = Self.programV4()
        let firstSequenceEnd = whole.count - 20  // the second sequence: 11 + 3 + 1 + 2 + 3 bytes
        for length in 0...whole.count {
            let table = table(Array(whole.prefix(length)))
            let first = table?.location(at: 0x1004)?.line
            let second = table?.location(at: 0x3000)?.line
            #expect(first == (length >= firstSequenceEnd ? 11 : nil), "cut at \(length) of \(whole.count)")
            #expect(second == (length == whole.count ? 100 : nil), "cut at \(length)")
        }
    }

    /// Every byte of the unit overwritten with each of a few values: the
    /// parse ends, and never reads outside the section.
    @Test func aDamagedProgramNeverCrashesOrHangs() {
        let whole = Self.programV4()
        var parsed = 0
        for index in whole.indices {
            for value: UInt8 in [0x00, 0x01, 0x7f, 0x80, 0xff] {
                var damaged = whole
                damaged[index] = value
                if let table = table(damaged) {
                    parsed += 1
                    _ = table.location(at: 0x1004)
                }
            }
        }
        #expect(parsed > 0)
    }
}
