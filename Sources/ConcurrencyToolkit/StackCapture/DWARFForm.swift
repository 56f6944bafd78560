/// One attribute value, as far as symbolication needs it: numbers,
/// addresses, strings and references keep their payload (no string is made
/// until asked for); blocks, expressions and forms nobody reads are skipped.
enum DWARFValue: Equatable {
    case skipped
    /// `data*`, `udata`, `flag*`, `sec_offset`, `implicit_const` (as its bit pattern).
    case number(UInt64)
    case signed(Int64)
    case address(UInt64)
    /// `addrx*`: an index into the unit's slice of `.debug_addr`.
    case addressIndex(UInt64)
    /// `DW_FORM_string`: the offset of its first byte in `.debug_info`.
    case inlineString(UInt64)
    case stringOffset(UInt64)
    case lineStringOffset(UInt64)
    /// `strx*`: an index into the unit's slice of `.debug_str_offsets`.
    case stringIndex(UInt64)
    /// A DIE's offset in `.debug_info`, unit-relative references made absolute.
    case reference(UInt64)
    /// `rnglistx`: an index into the unit's slice of `.debug_rnglists`.
    case rangeListIndex(UInt64)

    /// The value of a constant-class form.
    var number: UInt64? {
        switch self {
        case .number(let value): return value
        case .signed(let value): return UInt64(bitPattern: value)
        default: return nil
        }
    }
}

/// `DW_FORM_*` codes (DWARF 5, section 7.5.6, and the GNU extensions in use).
enum DWARFForm {
    static let addr: UInt64 = 0x01, block2: UInt64 = 0x03, block4: UInt64 = 0x04
    static let data2: UInt64 = 0x05, data4: UInt64 = 0x06, data8: UInt64 = 0x07
    static let string: UInt64 = 0x08, block: UInt64 = 0x09, block1: UInt64 = 0x0a
    static let data1: UInt64 = 0x0b, flag: UInt64 = 0x0c, sdata: UInt64 = 0x0d
    static let strp: UInt64 = 0x0e, udata: UInt64 = 0x0f, refAddr: UInt64 = 0x10
    static let ref1: UInt64 = 0x11, ref2: UInt64 = 0x12, ref4: UInt64 = 0x13
    static let ref8: UInt64 = 0x14, refUdata: UInt64 = 0x15, indirect: UInt64 = 0x16
    static let secOffset: UInt64 = 0x17, exprloc: UInt64 = 0x18, flagPresent: UInt64 = 0x19
    static let strx: UInt64 = 0x1a, addrx: UInt64 = 0x1b, refSup4: UInt64 = 0x1c
    static let strpSup: UInt64 = 0x1d, data16: UInt64 = 0x1e, lineStrp: UInt64 = 0x1f
    static let refSig8: UInt64 = 0x20, implicitConst: UInt64 = 0x21, loclistx: UInt64 = 0x22
    static let rnglistx: UInt64 = 0x23, refSup8: UInt64 = 0x24
    static let strx1: UInt64 = 0x25, strx4: UInt64 = 0x28, addrx1: UInt64 = 0x29, addrx4: UInt64 = 0x2c
    static let gnuAddrIndex: UInt64 = 0x1f01, gnuStrIndex: UInt64 = 0x1f02
    static let gnuRefAlt: UInt64 = 0x1f20, gnuStrpAlt: UInt64 = 0x1f21
}

extension DWARFCursor {
    /// Reads one value of `form` (`implicitConst` is the abbreviation's
    /// constant for `DW_FORM_implicit_const`). A form it cannot size stops
    /// the cursor: nothing after it in the unit can be found.
    mutating func value(form initialForm: UInt64, implicitConst: Int64, unit: DWARFUnitEncoding) -> DWARFValue {
        var form = initialForm
        while form == DWARFForm.indirect, isValid { form = uleb() }  // each step consumes a byte
        switch form {
        case DWARFForm.addr: return .address(unsigned(size: unit.addressSize))
        case DWARFForm.data1, DWARFForm.flag: return .number(UInt64(u8()))
        case DWARFForm.data2: return .number(UInt64(u16()))
        case DWARFForm.data4: return .number(UInt64(u32()))
        case DWARFForm.data8: return .number(u64())
        case DWARFForm.udata: return .number(uleb())
        case DWARFForm.sdata: return .signed(sleb())
        case DWARFForm.flagPresent: return .number(1)
        case DWARFForm.implicitConst: return .signed(implicitConst)
        case DWARFForm.secOffset: return .number(offset(is64: unit.is64))
        case DWARFForm.string:
            let start = UInt64(offset)
            skipCString()
            return .inlineString(start)
        case DWARFForm.strp: return .stringOffset(offset(is64: unit.is64))
        case DWARFForm.lineStrp: return .lineStringOffset(offset(is64: unit.is64))
        case DWARFForm.strx, DWARFForm.gnuStrIndex: return .stringIndex(uleb())
        case DWARFForm.strx1...DWARFForm.strx4:
            return .stringIndex(unsigned(size: Int(form - DWARFForm.strx1) + 1))
        case DWARFForm.addrx, DWARFForm.gnuAddrIndex: return .addressIndex(uleb())
        case DWARFForm.addrx1...DWARFForm.addrx4:
            return .addressIndex(unsigned(size: Int(form - DWARFForm.addrx1) + 1))
        case DWARFForm.ref1: return .reference(unit.unitOffset &+ UInt64(u8()))
        case DWARFForm.ref2: return .reference(unit.unitOffset &+ UInt64(u16()))
        case DWARFForm.ref4: return .reference(unit.unitOffset &+ UInt64(u32()))
        case DWARFForm.ref8: return .reference(unit.unitOffset &+ u64())
        case DWARFForm.refUdata: return .reference(unit.unitOffset &+ uleb())
        case DWARFForm.refAddr:
            // DWARF 2 sized it as an address, later versions as an offset.
            return .reference(unsigned(size: unit.version <= 2 ? unit.addressSize : unit.offsetSize))
        case DWARFForm.rnglistx: return .rangeListIndex(uleb())
        case DWARFForm.loclistx: _ = uleb()
        case DWARFForm.block1: skip(UInt64(u8()))
        case DWARFForm.block2: skip(UInt64(u16()))
        case DWARFForm.block4: skip(UInt64(u32()))
        case DWARFForm.block, DWARFForm.exprloc: skip(uleb())
        case DWARFForm.data16: skip(16)
        case DWARFForm.refSig8, DWARFForm.refSup8: skip(8)
        case DWARFForm.refSup4: skip(4)
        case DWARFForm.strpSup, DWARFForm.gnuRefAlt, DWARFForm.gnuStrpAlt: skip(UInt64(unit.offsetSize))
        default: fail()
        }
        return .skipped
    }
}
