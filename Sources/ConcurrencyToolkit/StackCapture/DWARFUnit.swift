/// A unit's header in `.debug_info`, DWARF 2 to 5, 32- or 64-bit.
struct DWARFUnitHeader {
    /// The offset of the header (references with `DW_FORM_ref*` count from here).
    var offset: UInt64
    /// The first byte past the unit.
    var end: Int
    /// The offset of the unit's first DIE.
    var firstEntry: Int
    var version: UInt16
    /// DWARF 5's `DW_UT_*`; 1 (compile) for earlier versions.
    var unitType: UInt8
    var is64: Bool
    var addressSize: Int
    var abbrevOffset: UInt64

    /// A type unit describes no code: symbolication skips it.
    var describesCode: Bool { unitType != 2 && unitType != 6 }

    var encoding: DWARFUnitEncoding {
        DWARFUnitEncoding(version: version, is64: is64, addressSize: addressSize, unitOffset: offset)
    }

    /// Every unit of `.debug_info`, in order, up to the first damaged header.
    static func all(in info: UnsafeRawBufferPointer?) -> [DWARFUnitHeader] {
        guard let info else { return [] }
        var headers: [DWARFUnitHeader] = []
        var cursor = DWARFCursor(info)
        while !cursor.isAtEnd, let header = DWARFUnitHeader(&cursor) {
            headers.append(header)
            cursor.seek(to: header.end)
        }
        return headers
    }

    /// Reads the header at the cursor; nil (and the cursor stops) when it is damaged.
    init?(_ cursor: inout DWARFCursor) {
        offset = UInt64(cursor.offset)
        guard let length = cursor.unitLength() else { return nil }
        end = length.end
        is64 = length.is64
        version = cursor.u16()
        guard (2...5).contains(version) else {
            cursor.fail()
            return nil
        }
        if version >= 5 {
            unitType = cursor.u8()
            addressSize = Int(cursor.u8())
            abbrevOffset = cursor.offset(is64: is64)
            switch unitType {
            case 2, 6: cursor.skip(8 + UInt64(is64 ? 8 : 4))  // type signature, type offset
            case 4, 5: cursor.skip(8)  // dwo_id
            default: break
            }
        } else {
            unitType = 1
            abbrevOffset = cursor.offset(is64: is64)
            addressSize = Int(cursor.u8())
        }
        firstEntry = cursor.offset
        guard cursor.isValid, [4, 8].contains(addressSize), firstEntry <= end else {
            cursor.fail()
            return nil
        }
    }
}

/// A unit ready to read: its header, abbreviations and the bases and
/// defaults its root DIE sets (base address, line table, compilation directory).
struct DWARFUnit {
    let header: DWARFUnitHeader
    let encoding: DWARFUnitEncoding
    let abbreviations: DWARFAbbreviations
    /// The root DIE (`DW_TAG_compile_unit`, `partial_unit`, `skeleton_unit`).
    let root: DWARFEntry?
    /// The base address of range lists: the root's `DW_AT_low_pc`, or 0.
    let baseAddress: UInt64

    /// With `rootOnly`, only the root DIE's abbreviation is read: enough
    /// for the unit's ranges, line table and bases, not for its children.
    init(_ header: DWARFUnitHeader, sections: DWARFSections, rootOnly: Bool = false) {
        self.header = header
        var rootCode: UInt64?
        if rootOnly, var cursor = DWARFCursor(sections.info, at: UInt64(header.firstEntry)) { rootCode = cursor.uleb() }
        abbreviations = DWARFAbbreviations(sections.abbrev, at: header.abbrevOffset, last: rootCode)
        var encoding = header.encoding
        var root: DWARFEntry?
        if let info = sections.info {
            var cursor = DWARFCursor(info, at: header.firstEntry, end: header.end)
            root = cursor.entry(abbreviations, unit: encoding)
        }
        if let base = root?.strOffsetsBase?.number { encoding.strOffsetsBase = base }
        if let base = root?.addrBase?.number { encoding.addrBase = base }
        if let base = root?.rnglistsBase?.number { encoding.rnglistsBase = base }
        self.encoding = encoding
        self.root = root
        baseAddress = root?.lowPC.flatMap { encoding.address($0, in: sections) } ?? 0
    }

    /// The offset of the unit's line program in `.debug_line`.
    var statementList: UInt64? { root?.stmtList?.number }

    func compilationDirectory(_ sections: DWARFSections) -> String? {
        root?.compDir.flatMap { encoding.string($0, in: sections) }
    }

    /// The addresses `entry` covers: `DW_AT_low_pc` with `DW_AT_high_pc`
    /// (an address, or a length when a constant), or `DW_AT_ranges`. Empty
    /// ranges, and code the linker dropped (relocated to 0), are left out.
    func ranges(of entry: DWARFEntry, sections: DWARFSections) -> [Range<UInt64>] {
        if let lowValue = entry.lowPC, let low = encoding.address(lowValue, in: sections), let highValue = entry.highPC {
            let high = encoding.address(highValue, in: sections) ?? highValue.number.map { low &+ $0 }
            guard let high, high > low, low != 0 else { return [] }
            return [low..<high]
        }
        guard let list = entry.ranges else { return [] }
        return DWARFRangeList.ranges(list, unit: self, sections: sections)
    }
}
