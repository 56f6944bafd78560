/// The DWARF sections of one loaded image, as the ELF reader maps them; nil
/// for a section the image does not have. The bytes must stay valid, and
/// unchanged, for as long as a `DWARFImage` reads them: the image's life.
///
/// Compressed sections (`SHF_COMPRESSED`) must be handed over inflated, or
/// not at all.
struct DWARFSections {
    var info: UnsafeRawBufferPointer?
    var abbrev: UnsafeRawBufferPointer?
    var line: UnsafeRawBufferPointer?
    var lineStr: UnsafeRawBufferPointer?
    var str: UnsafeRawBufferPointer?
    var strOffsets: UnsafeRawBufferPointer?
    var addr: UnsafeRawBufferPointer?
    var ranges: UnsafeRawBufferPointer?
    var rnglists: UnsafeRawBufferPointer?
    var aranges: UnsafeRawBufferPointer?

    init(
        info: UnsafeRawBufferPointer? = nil, abbrev: UnsafeRawBufferPointer? = nil,
        line: UnsafeRawBufferPointer? = nil, lineStr: UnsafeRawBufferPointer? = nil,
        str: UnsafeRawBufferPointer? = nil, strOffsets: UnsafeRawBufferPointer? = nil,
        addr: UnsafeRawBufferPointer? = nil, ranges: UnsafeRawBufferPointer? = nil,
        rnglists: UnsafeRawBufferPointer? = nil, aranges: UnsafeRawBufferPointer? = nil
    ) {
        self.info = info
        self.abbrev = abbrev
        self.line = line
        self.lineStr = lineStr
        self.str = str
        self.strOffsets = strOffsets
        self.addr = addr
        self.ranges = ranges
        self.rnglists = rnglists
        self.aranges = aranges
    }
}

/// What a unit's attribute values need to become strings and addresses: its
/// encoding and the bases its root DIE sets (DWARF 5's `*_base` attributes).
struct DWARFUnitEncoding {
    var version: UInt16
    var is64: Bool
    var addressSize: Int
    /// The unit's own offset in `.debug_info`: unit-relative references add it.
    var unitOffset: UInt64
    /// DWARF 5's defaults: the bases point just past each section's first header.
    var strOffsetsBase: UInt64 = 8
    var addrBase: UInt64 = 8
    var rnglistsBase: UInt64 = 12

    var offsetSize: Int { is64 ? 8 : 4 }

    /// The string a name-like attribute value holds.
    func string(_ value: DWARFValue, in sections: DWARFSections) -> String? {
        switch value {
        case .inlineString(let offset): return DWARFCursor.string(in: sections.info, at: offset)
        case .stringOffset(let offset): return DWARFCursor.string(in: sections.str, at: offset)
        case .lineStringOffset(let offset): return DWARFCursor.string(in: sections.lineStr, at: offset)
        case .stringIndex(let index):
            let (entry, overflow) = index.multipliedReportingOverflow(by: UInt64(offsetSize))
            guard !overflow, var cursor = DWARFCursor(sections.strOffsets, at: strOffsetsBase &+ entry) else { return nil }
            let offset = cursor.offset(is64: is64)
            return cursor.isValid ? DWARFCursor.string(in: sections.str, at: offset) : nil
        default: return nil
        }
    }

    /// The address an address-class value holds (`DW_FORM_addr`, `addrx*`).
    func address(_ value: DWARFValue, in sections: DWARFSections) -> UInt64? {
        switch value {
        case .address(let address): return address
        case .addressIndex(let index): return indexedAddress(index, in: sections)
        default: return nil
        }
    }

    /// Entry `index` of this unit's slice of `.debug_addr`.
    func indexedAddress(_ index: UInt64, in sections: DWARFSections) -> UInt64? {
        let (entry, overflow) = index.multipliedReportingOverflow(by: UInt64(addressSize))
        guard !overflow, var cursor = DWARFCursor(sections.addr, at: addrBase &+ entry) else { return nil }
        let address = cursor.unsigned(size: addressSize)
        return cursor.isValid ? address : nil
    }
}
