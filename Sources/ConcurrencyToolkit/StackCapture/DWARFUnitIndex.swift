/// Which compile unit covers an address: every unit's header, and the
/// address ranges of the units that describe code, sorted.
///
/// Made once per image, on the first lookup. The ranges come from
/// `.debug_aranges` where it lists a unit, else from the unit's root DIE
/// (`DW_AT_low_pc`/`DW_AT_high_pc` or `DW_AT_ranges`); a compiler may list
/// only some units in `.debug_aranges`, so the others are still read.
final class DWARFUnitIndex: Sendable {
    struct Span {
        var low: UInt64
        var high: UInt64
        /// Index into `headers`.
        var unit: Int32
    }

    let headers: [DWARFUnitHeader]
    let spans: [Span]

    init(_ sections: DWARFSections) {
        let headers = DWARFUnitHeader.all(in: sections.info)
        var spans = Self.arangeSpans(sections, headers: headers)
        let listed = Set(spans.map(\.unit))
        for (index, header) in headers.enumerated() where header.describesCode && !listed.contains(Int32(index)) {
            let unit = DWARFUnit(header, sections: sections, rootOnly: true)
            guard let root = unit.root else { continue }
            for range in unit.ranges(of: root, sections: sections) {
                spans.append(Span(low: range.lowerBound, high: range.upperBound, unit: Int32(index)))
            }
        }
        self.headers = headers
        self.spans = spans.sorted { $0.low < $1.low }
    }

    /// The index of the unit whose ranges hold `address`.
    func unit(containing address: UInt64) -> Int? {
        var index = DWARFLineTable.lastIndex(in: spans.indices) { spans[$0].low <= address }
        // Units' ranges interleave when one unit's code sits between
        // another's functions; look back a little past such a neighbour.
        var looked = 0
        while let candidate = index, looked < 16 {
            if address < spans[candidate].high { return Int(spans[candidate].unit) }
            index = candidate > 0 ? candidate - 1 : nil
            looked += 1
        }
        return nil
    }

    /// The index of the unit whose bytes hold the DIE at `offset` (a
    /// `DW_FORM_ref_addr` target may be in any unit).
    func unit(holdingEntryAt offset: UInt64) -> Int? {
        guard let index = DWARFLineTable.lastIndex(in: headers.indices, where: { headers[$0].offset <= offset }),
            offset < UInt64(headers[index].end)
        else { return nil }
        return index
    }

    /// `.debug_aranges`: per set, a unit's offset and its (address, length) tuples.
    private static func arangeSpans(_ sections: DWARFSections, headers: [DWARFUnitHeader]) -> [Span] {
        guard let aranges = sections.aranges else { return [] }
        var unitAt: [UInt64: Int32] = [:]
        for (index, header) in headers.enumerated() { unitAt[header.offset] = Int32(index) }
        var spans: [Span] = []
        var cursor = DWARFCursor(aranges)
        while !cursor.isAtEnd {
            let setStart = cursor.offset
            guard let length = cursor.unitLength() else { break }
            let version = cursor.u16()
            let unitOffset = cursor.offset(is64: length.is64)
            let addressSize = Int(cursor.u8())
            let segmentSize = Int(cursor.u8())
            guard cursor.isValid, version == 2, [4, 8].contains(addressSize), segmentSize <= 8 else { break }
            let tupleSize = 2 * addressSize + segmentSize
            // Tuples start at a multiple of their size from the set's start.
            let misalignment = (cursor.offset - setStart) % tupleSize
            if misalignment != 0 { cursor.skip(UInt64(tupleSize - misalignment)) }
            var set = DWARFCursor(cursor.bytes, at: cursor.offset, end: length.end)
            while set.remaining >= tupleSize {
                set.skip(UInt64(segmentSize))
                let address = set.unsigned(size: addressSize)
                let size = set.unsigned(size: addressSize)
                if address == 0 && size == 0 { break }
                if let unit = unitAt[unitOffset], address != 0, size > 0, address <= UInt64.max - size {
                    spans.append(Span(low: address, high: address + size, unit: unit))
                }
            }
            cursor.seek(to: length.end)
        }
        return spans
    }

    var estimatedBytes: Int {
        headers.capacity * MemoryLayout<DWARFUnitHeader>.stride + spans.capacity * MemoryLayout<Span>.stride
    }
}
