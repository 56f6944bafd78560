/// One unit's line table: the rows its `.debug_line` program produces, per
/// sequence, and the lookup of an address's file and line.
///
/// Immutable once made, so a lookup needs no lock. Consecutive rows with the
/// same file and line are kept once (the lookup cannot tell them apart), and
/// a row followed by another at the same address gives way to it: about 3
/// rows in 10 remain in Swift's tables.
final class DWARFLineTable: Sendable {
    struct Row {
        var address: UInt64
        var file: UInt32
        var line: UInt32
    }

    struct Sequence {
        var start: UInt64
        /// The address of `DW_LNE_end_sequence`: the first past the sequence.
        var end: UInt64
        var rows: Range<Int>
    }

    let files: [DWARFLineHeader.File]
    let directories: [String]
    let compilationDirectory: String?
    let version: UInt16
    let rows: [Row]
    /// Sorted by start address.
    let sequences: [Sequence]

    /// The program at `offset` of `.debug_line`; nil when there is no
    /// readable header there. A damaged program keeps the sequences it ended.
    init?(_ sections: DWARFSections, at offset: UInt64, compilationDirectory: String?,
          unitAddressSize: Int = 8, strOffsets: DWARFUnitEncoding? = nil) {
        guard var cursor = DWARFCursor(sections.line, at: offset),
            let header = DWARFLineHeader(
                &cursor, sections: sections, compilationDirectory: compilationDirectory,
                unitAddressSize: unitAddressSize, strOffsets: strOffsets)
        else { return nil }
        var program = DWARFCursor(cursor.bytes, at: header.programStart, end: header.end)
        var files = header.files
        var rows: [Row] = []
        var sequences: [Sequence] = []
        Self.run(&program, header, files: &files, rows: &rows, sequences: &sequences)
        self.files = files
        directories = header.directories
        self.compilationDirectory = compilationDirectory
        version = header.version
        self.rows = Self.exactly(rows)
        self.sequences = sequences.sorted { $0.start < $1.start }
    }

    /// Runs the line-number program (DWARF 5, section 6.2.5).
    private static func run(
        _ cursor: inout DWARFCursor, _ header: DWARFLineHeader, files: inout [DWARFLineHeader.File],
        rows: inout [Row], sequences: inout [Sequence]
    ) {
        let minimumLength = UInt64(header.minimumInstructionLength)
        let lineRange = UInt64(header.lineRange)
        let opcodeBase = header.opcodeBase
        var address: UInt64 = 0
        var file: UInt64 = 1
        var line: Int64 = 1
        var sequenceStart = rows.count

        func emitRow() {
            let row = Row(address: address, file: UInt32(truncatingIfNeeded: file), line: UInt32(truncatingIfNeeded: line))
            if rows.count > sequenceStart, let last = rows.last {
                if last.address == row.address {
                    rows[rows.count - 1] = row
                    return
                }
                if last.file == row.file, last.line == row.line { return }
            }
            rows.append(row)
        }
        func endSequence() {
            if rows.count > sequenceStart {
                let start = rows[sequenceStart].address
                if start != 0, address > start {  // code the linker dropped sits at 0
                    sequences.append(Sequence(start: start, end: address, rows: sequenceStart..<rows.count))
                } else {
                    rows.removeSubrange(sequenceStart...)
                }
            }
            sequenceStart = rows.count
            (address, file, line) = (0, 1, 1)
        }

        while !cursor.isAtEnd {
            let opcode = cursor.u8()
            if opcode >= opcodeBase {  // special opcode: advance both, emit a row
                let adjusted = UInt64(opcode - opcodeBase)
                address &+= (adjusted / lineRange) &* minimumLength
                line &+= Int64(header.lineBase) &+ Int64(adjusted % lineRange)
                emitRow()
                continue
            }
            switch opcode {
            case 0:  // extended
                let length = cursor.uleb()
                guard length > 0, length <= UInt64(cursor.remaining) else {
                    if length > 0 { cursor.fail() }
                    continue
                }
                let next = cursor.offset + Int(length)
                switch cursor.u8() {
                case 1: endSequence()
                case 2 where length <= 9: address = cursor.unsigned(size: Int(length) - 1)
                case 3:  // DW_LNE_define_file (DWARF 2 to 4)
                    if let name = cursor.cString(), let entry = DWARFLineHeader.fileV4(named: name, &cursor) {
                        files.append(entry)
                    }
                default: break  // set_discriminator, vendor opcodes
                }
                cursor.seek(to: next)
            case 1: emitRow()  // copy
            case 2: address &+= cursor.uleb() &* minimumLength  // advance_pc
            case 3: line &+= cursor.sleb()  // advance_line
            case 4: file = cursor.uleb()  // set_file
            case 8: address &+= ((255 - UInt64(opcodeBase)) / lineRange) &* minimumLength  // const_add_pc
            case 9: address &+= UInt64(cursor.u16())  // fixed_advance_pc
            case 5, 6, 7, 10, 11, 12:  // column, is_stmt, basic_block, prologue, epilogue, isa
                for _ in 0..<header.standardOpcodeLengths[Int(opcode) - 1] { _ = cursor.uleb() }
            default:  // an opcode of a later version: its operand count is in the header
                let lengths = header.standardOpcodeLengths
                for _ in 0..<(Int(opcode) - 1 < lengths.count ? lengths[Int(opcode) - 1] : 0) { _ = cursor.uleb() }
            }
        }
        // Rows after the last end_sequence are no sequence: dropped.
        rows.removeSubrange(sequenceStart...)
    }

    /// The file and line of `address`: the last row at or before it in the
    /// sequence that covers it. nil when no sequence covers it; `line` nil
    /// for line 0 (code with no source line, such as a compiler-made thunk).
    func location(at address: UInt64) -> (file: String?, line: Int?)? {
        guard let row = row(at: address) else { return nil }
        return (path(ofFile: UInt64(row.file)), row.line == 0 ? nil : Int(row.line))
    }

    func row(at address: UInt64) -> Row? {
        var index = Self.lastIndex(in: sequences.indices, where: { sequences[$0].start <= address })
        // Sequences rarely overlap; look a few back when the nearest one ends too soon.
        var looked = 0
        while let candidate = index, looked < 8 {
            let sequence = sequences[candidate]
            if address < sequence.end {
                guard let rowIndex = Self.lastIndex(in: sequence.rows, where: { rows[$0].address <= address }) else { return nil }
                return rows[rowIndex]
            }
            index = candidate > 0 ? candidate - 1 : nil
            looked += 1
        }
        return nil
    }

    /// The path of file `index` of this table (a row's file, or a
    /// `DW_AT_call_file` of its unit: 1-based before DWARF 5, 0-based in 5).
    func path(ofFile index: UInt64) -> String? {
        DWARFLineHeader.path(
            ofFile: index, files: files, directories: directories, compilationDirectory: compilationDirectory)
    }

    /// What the table holds, roughly, in bytes.
    var estimatedBytes: Int {
        rows.capacity * MemoryLayout<Row>.stride + sequences.capacity * MemoryLayout<Sequence>.stride
            + files.reduce(0) { $0 + 32 + $1.name.utf8.count } + directories.reduce(0) { $0 + 16 + $1.utf8.count }
    }

    /// A copy without the spare capacity growth left: kept tables hold
    /// what they need, no more.
    static func exactly<Element>(_ array: [Element]) -> [Element] {
        array.withUnsafeBufferPointer { Array($0) }
    }

    /// The last index of `range` where `isBefore` holds, for a predicate that
    /// holds on a prefix of it.
    static func lastIndex(in range: Range<Int>, where isBefore: (Int) -> Bool) -> Int? {
        var low = range.lowerBound
        var high = range.upperBound
        while low < high {
            let middle = low + (high - low) / 2
            if isBefore(middle) { low = middle + 1 } else { high = middle }
        }
        return low > range.lowerBound ? low - 1 : nil
    }
}
