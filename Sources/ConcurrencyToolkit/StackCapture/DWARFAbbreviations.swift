/// One unit's abbreviation table (`.debug_abbrev`): for each code, a DIE's
/// tag, whether it has children, and its attributes' names and forms.
struct DWARFAbbreviations {
    struct Attribute {
        var name: UInt64
        var form: UInt64
        var implicitConst: Int64
    }

    struct Abbreviation {
        var tag: UInt64
        var hasChildren: Bool
        /// Where its attributes are in `attributes`.
        var attributeRange: Range<Int>
    }

    /// Every abbreviation's attributes, one after the other: one array for
    /// the table, not one per abbreviation (the unit index reads a table
    /// per unit, and allocation was most of its time).
    private(set) var attributes: [Attribute] = []
    /// Codes are usually 1, 2, 3…: those index an array (tag 0 where a code
    /// is missing: no DIE has tag 0); others go to a dictionary.
    private var dense: [Abbreviation] = []
    private var sparse: [UInt64: Abbreviation] = [:]

    subscript(code: UInt64) -> Abbreviation? {
        guard code < UInt64(dense.count) else { return sparse[code] }
        let abbreviation = dense[Int(code)]
        return abbreviation.tag == 0 ? nil : abbreviation
    }

    /// The table at `offset` of `.debug_abbrev`; empty when there is none.
    /// A malformed table keeps the abbreviations read before the damage.
    /// With `last`, reading stops after that code: a unit's root DIE
    /// usually has the table's first code, so the unit index reads one.
    init(_ section: UnsafeRawBufferPointer?, at offset: UInt64, last: UInt64? = nil) {
        guard var cursor = DWARFCursor(section, at: offset) else { return }
        while !cursor.isAtEnd {
            let code = cursor.uleb()
            guard code != 0, cursor.isValid else { break }
            let tag = cursor.uleb()
            let hasChildren = cursor.u8() != 0
            let first = attributes.count
            while cursor.isValid {
                let name = cursor.uleb()
                let form = cursor.uleb()
                if name == 0 && form == 0 { break }
                let implicitConst = form == DWARFForm.implicitConst ? cursor.sleb() : 0
                attributes.append(Attribute(name: name, form: form, implicitConst: implicitConst))
            }
            guard cursor.isValid else { break }
            let abbreviation = Abbreviation(tag: tag, hasChildren: hasChildren, attributeRange: first..<attributes.count)
            if code < 4096 {
                if dense.count <= Int(code) {
                    let missing = Abbreviation(tag: 0, hasChildren: false, attributeRange: 0..<0)
                    dense.append(contentsOf: repeatElement(missing, count: Int(code) + 1 - dense.count))
                }
                dense[Int(code)] = abbreviation
            } else {
                sparse[code] = abbreviation
            }
            if code == last { break }
        }
    }

    /// How many bytes the table holds, roughly, for the image's cache limit.
    var estimatedBytes: Int {
        attributes.capacity * MemoryLayout<Attribute>.stride + dense.capacity * MemoryLayout<Abbreviation>.stride
            + sparse.count * 80
    }
}

/// `DW_TAG_*` and `DW_AT_*` codes symbolication reads.
enum DWARFTag {
    static let inlinedSubroutine: UInt64 = 0x1d
    static let subprogram: UInt64 = 0x2e
}

enum DWARFAttribute {
    static let name: UInt64 = 0x03, stmtList: UInt64 = 0x10, lowPC: UInt64 = 0x11, highPC: UInt64 = 0x12
    static let compDir: UInt64 = 0x1b, abstractOrigin: UInt64 = 0x31, specification: UInt64 = 0x47
    static let ranges: UInt64 = 0x55, callFile: UInt64 = 0x58, callLine: UInt64 = 0x59
    static let linkageName: UInt64 = 0x6e, strOffsetsBase: UInt64 = 0x72, addrBase: UInt64 = 0x73
    static let rnglistsBase: UInt64 = 0x74, mipsLinkageName: UInt64 = 0x2007
    static let gnuAddrBase: UInt64 = 0x2133
}

/// One DIE: its tag and the attributes symbolication reads; the others are
/// read past. A plain value, so walking a unit allocates nothing per DIE.
struct DWARFEntry {
    var offset: UInt64
    var tag: UInt64 = 0
    var hasChildren = false
    var name: DWARFValue?
    var linkageName: DWARFValue?
    var lowPC: DWARFValue?
    var highPC: DWARFValue?
    var ranges: DWARFValue?
    var abstractOrigin: DWARFValue?
    var specification: DWARFValue?
    var callFile: DWARFValue?
    var callLine: DWARFValue?
    var stmtList: DWARFValue?
    var compDir: DWARFValue?
    var strOffsetsBase: DWARFValue?
    var addrBase: DWARFValue?
    var rnglistsBase: DWARFValue?
}

extension DWARFCursor {
    /// The DIE at the cursor: nil for a null entry (the end of a list of
    /// children) or an unknown abbreviation code (the cursor stops then).
    mutating func entry(_ abbreviations: DWARFAbbreviations, unit: DWARFUnitEncoding) -> DWARFEntry? {
        var entry = DWARFEntry(offset: UInt64(offset))
        let code = uleb()
        guard code != 0, isValid else { return nil }
        guard let abbreviation = abbreviations[code] else {
            fail()
            return nil
        }
        entry.tag = abbreviation.tag
        entry.hasChildren = abbreviation.hasChildren
        for index in abbreviation.attributeRange {
            let attribute = abbreviations.attributes[index]
            let value = value(form: attribute.form, implicitConst: attribute.implicitConst, unit: unit)
            switch attribute.name {
            case DWARFAttribute.name: entry.name = value
            case DWARFAttribute.linkageName, DWARFAttribute.mipsLinkageName: entry.linkageName = value
            case DWARFAttribute.lowPC: entry.lowPC = value
            case DWARFAttribute.highPC: entry.highPC = value
            case DWARFAttribute.ranges: entry.ranges = value
            case DWARFAttribute.abstractOrigin: entry.abstractOrigin = value
            case DWARFAttribute.specification: entry.specification = value
            case DWARFAttribute.callFile: entry.callFile = value
            case DWARFAttribute.callLine: entry.callLine = value
            case DWARFAttribute.stmtList: entry.stmtList = value
            case DWARFAttribute.compDir: entry.compDir = value
            case DWARFAttribute.strOffsetsBase: entry.strOffsetsBase = value
            case DWARFAttribute.addrBase, DWARFAttribute.gnuAddrBase: entry.addrBase = value
            case DWARFAttribute.rnglistsBase: entry.rnglistsBase = value
            default: break
            }
        }
        return isValid ? entry : nil
    }
}
