/// `DW_AT_ranges`: DWARF 4's `.debug_ranges` (address pairs, base address
/// selection entries) and DWARF 5's `.debug_rnglists` (`DW_RLE_*` entries,
/// reached by offset or by `DW_FORM_rnglistx` index).
enum DWARFRangeList {
    /// The ranges `value` (a `DW_AT_ranges` value of `unit`) lists, empty
    /// ones and dropped code (at address 0) left out.
    static func ranges(_ value: DWARFValue, unit: DWARFUnit, sections: DWARFSections) -> [Range<UInt64>] {
        let encoding = unit.encoding
        if encoding.version < 5 {
            guard let offset = value.number else { return [] }
            return rangesV4(at: offset, unit: unit, sections: sections)
        }
        switch value {
        case .rangeListIndex(let index):
            let (entry, overflow) = index.multipliedReportingOverflow(by: UInt64(encoding.offsetSize))
            guard !overflow, var cursor = DWARFCursor(sections.rnglists, at: encoding.rnglistsBase &+ entry) else {
                return []
            }
            let relative = cursor.offset(is64: encoding.is64)
            guard cursor.isValid else { return [] }
            return rangesV5(at: encoding.rnglistsBase &+ relative, unit: unit, sections: sections)
        default:
            guard let offset = value.number else { return [] }
            return rangesV5(at: offset, unit: unit, sections: sections)
        }
    }

    private static func rangesV4(at offset: UInt64, unit: DWARFUnit, sections: DWARFSections) -> [Range<UInt64>] {
        guard var cursor = DWARFCursor(sections.ranges, at: offset) else { return [] }
        let size = unit.encoding.addressSize
        let selection: UInt64 = size == 4 ? 0xffff_ffff : .max
        var base = unit.baseAddress
        var ranges: [Range<UInt64>] = []
        while !cursor.isAtEnd {
            let start = cursor.unsigned(size: size)
            let end = cursor.unsigned(size: size)
            guard cursor.isValid, start != 0 || end != 0 else { break }
            if start == selection {
                base = end
            } else {
                append(base &+ start, base &+ end, to: &ranges)
            }
        }
        return ranges
    }

    private static func rangesV5(at offset: UInt64, unit: DWARFUnit, sections: DWARFSections) -> [Range<UInt64>] {
        guard var cursor = DWARFCursor(sections.rnglists, at: offset) else { return [] }
        let encoding = unit.encoding
        let size = encoding.addressSize
        func indexed(_ index: UInt64) -> UInt64 { encoding.indexedAddress(index, in: sections) ?? 0 }
        var base = unit.baseAddress
        var ranges: [Range<UInt64>] = []
        while !cursor.isAtEnd {
            switch cursor.u8() {
            case 0:  // DW_RLE_end_of_list
                return ranges
            case 1:  // DW_RLE_base_addressx
                base = indexed(cursor.uleb())
            case 2:  // DW_RLE_startx_endx
                let start = indexed(cursor.uleb())
                append(start, indexed(cursor.uleb()), to: &ranges)
            case 3:  // DW_RLE_startx_length
                let start = indexed(cursor.uleb())
                append(start, start &+ cursor.uleb(), to: &ranges)
            case 4:  // DW_RLE_offset_pair
                let start = cursor.uleb()
                append(base &+ start, base &+ cursor.uleb(), to: &ranges)
            case 5:  // DW_RLE_base_address
                base = cursor.unsigned(size: size)
            case 6:  // DW_RLE_start_end
                let start = cursor.unsigned(size: size)
                append(start, cursor.unsigned(size: size), to: &ranges)
            case 7:  // DW_RLE_start_length
                let start = cursor.unsigned(size: size)
                append(start, start &+ cursor.uleb(), to: &ranges)
            default:
                cursor.fail()
            }
        }
        return ranges
    }

    private static func append(_ low: UInt64, _ high: UInt64, to ranges: inout [Range<UInt64>]) {
        if low != 0, high > low { ranges.append(low..<high) }
    }
}
