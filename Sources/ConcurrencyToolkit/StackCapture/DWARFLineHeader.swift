/// The header of one line program in `.debug_line`, DWARF 2 to 5: the
/// program's parameters and its directory and file lists.
///
/// Both lists are stored so that the index the program (and
/// `DW_AT_call_file`) uses reads them directly: in DWARF 5, directory 0 and
/// file 0 are the unit's own; before, directory 0 is the compilation
/// directory (put first here) and files count from 1 (`files[0]` is an empty
/// name that no path is made from).
struct DWARFLineHeader {
    struct File {
        var name: String
        var directory: UInt64
    }

    var version: UInt16
    var is64: Bool
    var addressSize: Int
    var minimumInstructionLength: UInt8
    var defaultIsStatement: Bool
    var lineBase: Int8
    var lineRange: UInt8
    var opcodeBase: UInt8
    /// The operand count of each standard opcode, so an unknown one can be skipped.
    var standardOpcodeLengths: [UInt8]
    var directories: [String]
    var files: [File]
    /// Where the opcodes start and where the unit ends.
    var programStart: Int
    var end: Int

    /// Reads the header at the cursor. `unitAddressSize` is the compile
    /// unit's (headers before DWARF 5 do not say); `strOffsets` reads a
    /// `DW_FORM_strx` path of a DWARF 5 entry.
    init?(_ cursor: inout DWARFCursor, sections: DWARFSections, compilationDirectory: String?,
          unitAddressSize: Int, strOffsets: DWARFUnitEncoding?) {
        guard let length = cursor.unitLength() else { return nil }
        end = length.end
        is64 = length.is64
        version = cursor.u16()
        guard (2...5).contains(version) else { return nil }
        addressSize = unitAddressSize
        if version >= 5 {
            addressSize = Int(cursor.u8())
            _ = cursor.u8()  // segment selector size
        }
        let headerLength = cursor.offset(is64: is64)
        programStart = cursor.offset + Int(clamping: min(headerLength, UInt64(cursor.remaining)))
        minimumInstructionLength = cursor.u8()
        if version >= 4 { _ = cursor.u8() }  // maximum operations per instruction: VLIW only
        defaultIsStatement = cursor.u8() != 0
        lineBase = cursor.i8()
        lineRange = cursor.u8()
        opcodeBase = cursor.u8()
        standardOpcodeLengths = (1..<max(1, Int(opcodeBase))).map { _ in cursor.u8() }
        guard cursor.isValid, lineRange != 0, [4, 8].contains(addressSize) else { return nil }
        directories = []
        files = []
        if version >= 5 {
            var encoding = strOffsets ?? DWARFUnitEncoding(version: 5, is64: is64, addressSize: addressSize, unitOffset: 0)
            encoding.is64 = is64
            encoding.addressSize = addressSize
            directories = Self.entries(&cursor, encoding: encoding, sections: sections).map { $0.name }
            files = Self.entries(&cursor, encoding: encoding, sections: sections)
        } else {
            directories.append(compilationDirectory ?? "")
            while let directory = cursor.cString(), !directory.isEmpty { directories.append(directory) }
            files.append(File(name: "", directory: 0))
            while let name = cursor.cString(), !name.isEmpty, let file = Self.fileV4(named: name, &cursor) {
                files.append(file)
            }
        }
        // A damaged list keeps what it read; the program still has its start.
    }

    /// The rest of a DWARF 4 file entry (also `DW_LNE_define_file`'s operands).
    static func fileV4(named name: String, _ cursor: inout DWARFCursor) -> File? {
        let directory = cursor.uleb()
        _ = cursor.uleb()  // modification time
        _ = cursor.uleb()  // length
        return cursor.isValid ? File(name: name, directory: directory) : nil
    }

    /// A DWARF 5 directory or file list: its entry format, then its entries.
    private static func entries(_ cursor: inout DWARFCursor, encoding: DWARFUnitEncoding, sections: DWARFSections) -> [File] {
        let formatCount = Int(cursor.u8())
        let format = (0..<formatCount).map { _ in (type: cursor.uleb(), form: cursor.uleb()) }
        let count = cursor.uleb()
        var entries: [File] = []
        // Each entry reads at least one byte per field, or the cursor stops:
        // a huge count on a short section ends with the section.
        while cursor.isValid, UInt64(entries.count) < count {
            var entry = File(name: "", directory: 0)
            for field in format {
                if field.type == 1, field.form == DWARFForm.string {  // in this section, not .debug_info
                    entry.name = cursor.cString() ?? ""
                    continue
                }
                let value = cursor.value(form: field.form, implicitConst: 0, unit: encoding)
                switch field.type {
                case 1: entry.name = encoding.string(value, in: sections) ?? ""  // DW_LNCT_path
                case 2: entry.directory = value.number ?? 0  // DW_LNCT_directory_index
                default: break  // timestamp, size, MD5, vendor fields
                }
            }
            if format.isEmpty { break }
            if cursor.isValid { entries.append(entry) }
        }
        return entries
    }

    /// `directory/name`, the directory made absolute with the compilation
    /// directory; nil for an index the lists do not have.
    static func path(ofFile index: UInt64, files: [File], directories: [String], compilationDirectory: String?) -> String? {
        guard index < UInt64(files.count) else { return nil }
        let file = files[Int(index)]
        guard !file.name.isEmpty else { return nil }
        if file.name.hasPrefix("/") { return file.name }
        var directory = file.directory < UInt64(directories.count) ? directories[Int(file.directory)] : ""
        if !directory.hasPrefix("/"), let base = compilationDirectory, !base.isEmpty {
            directory = directory.isEmpty ? base : base + "/" + directory
        }
        if directory.isEmpty { return file.name }
        return directory.hasSuffix("/") ? directory + file.name : directory + "/" + file.name
    }
}
