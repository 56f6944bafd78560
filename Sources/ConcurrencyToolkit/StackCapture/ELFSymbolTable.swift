#if os(Linux)
/// The functions of one ELF file by address, from `.symtab`, or from
/// `.dynsym` when the file was stripped (a stripped library still exports
/// its public functions there; a stripped executable usually has none).
///
/// 16 bytes a function: the names stay in the mapped string table and are
/// read only for the frames looked up.
struct ELFSymbolTable: Sendable {
    struct Symbol: Sendable {
        /// The file address of the function's first byte.
        var address: UInt64
        /// Its length in bytes, 0 when unknown (clamped to `UInt32.max`).
        var size: UInt32
        /// Where its name starts in the string table.
        var nameOffset: UInt32
    }

    /// Sorted by address, one per address.
    let symbols: [Symbol]
    /// The string table, read in `file`'s mapping, which this keeps alive.
    private let namesSection: ELFFile.Section?
    private let file: ELFFile

    init(file: ELFFile) {
        self.file = file
        let table =
            file.sections.first { $0.type == 2 }  // SHT_SYMTAB
            ?? file.sections.first { $0.type == 11 }  // SHT_DYNSYM
        guard let table, let entries = file.contents(of: table), file.sections.indices.contains(Int(table.link)) else {
            symbols = []
            namesSection = nil
            return
        }
        namesSection = file.sections[Int(table.link)]
        let names = file.contents(of: file.sections[Int(table.link)])
        symbols = ELFSymbolTable.functions(in: entries, entrySize: table.entrySize, sections: file.sections, names: names)
    }

    var isEmpty: Bool { symbols.isEmpty }

    /// The function whose code holds `fileAddress`: the nearest symbol at or
    /// below it, unless its size is known and ends before `fileAddress`
    /// (the address is then in code no symbol names, such as padding or a
    /// stripped function next to an exported one). Returns the raw
    /// (mangled) name.
    func function(containing fileAddress: UInt) -> String? {
        let address = UInt64(fileAddress)
        // The last symbol whose address is <= address.
        var low = 0
        var high = symbols.count
        while low < high {
            let middle = (low + high) / 2
            if symbols[middle].address <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let symbol = symbols[low - 1]
        if symbol.size > 0, address - symbol.address >= UInt64(symbol.size) { return nil }
        return namesSection.flatMap(file.contents)?.cString(at: Int(symbol.nameOffset))
    }

    /// STT_FUNC and STT_GNU_IFUNC symbols defined in the file, and
    /// STT_NOTYPE ones in an executable section (hand-written assembly in
    /// the C library labels functions that way); sorted by address, one per
    /// address, preferring a typed, sized, global symbol over an alias.
    private static func functions(
        in entries: UnsafeRawBufferPointer, entrySize: Int, sections: [ELFFile.Section], names: UnsafeRawBufferPointer?
    ) -> [Symbol] {
        let stride = entrySize >= 24 ? entrySize : 24
        var found: [(symbol: Symbol, rank: Int)] = []
        found.reserveCapacity(entries.count / stride)
        var at = stride  // entry 0 is the null symbol
        while at + 24 <= entries.count {
            defer { at += stride }
            guard let nameOffset = entries.integer(at: at, as: UInt32.self), nameOffset != 0,
                let info = entries.integer(at: at + 4, as: UInt8.self),
                let sectionIndex = entries.integer(at: at + 6, as: UInt16.self),
                let value = entries.integer(at: at + 8, as: UInt64.self), value != 0,
                let size = entries.integer(at: at + 16, as: UInt64.self)
            else { continue }
            let type = info & 0xF
            let binding = info >> 4
            // SHN_UNDEF: an import; 0xFF00 and up: ABS, COMMON, reserved.
            guard sectionIndex != 0, sectionIndex < 0xFF00 else { continue }
            switch type {
            case 2, 10: break  // STT_FUNC, STT_GNU_IFUNC
            case 0:  // STT_NOTYPE: only a label in code, not an arm64 mapping symbol (`$x`, `$d`) or a local label
                guard sections.indices.contains(Int(sectionIndex)), sections[Int(sectionIndex)].isExecutable,
                    let first = names?.integer(at: Int(nameOffset), as: UInt8.self), first != UInt8(ascii: "$"), first != UInt8(ascii: ".")
                else { continue }
            default: continue
            }
            let rank = (type == 0 ? 0 : 4) + (size > 0 ? 2 : 0) + (binding == 0 ? 0 : 1)
            found.append((Symbol(address: value, size: UInt32(clamping: size), nameOffset: nameOffset), rank))
        }
        found.sort { $0.symbol.address != $1.symbol.address ? $0.symbol.address < $1.symbol.address : $0.rank > $1.rank }
        var symbols: [Symbol] = []
        symbols.reserveCapacity(found.count)
        for entry in found where symbols.last?.address != entry.symbol.address {
            symbols.append(entry.symbol)
        }
        return symbols
    }
}
#endif
