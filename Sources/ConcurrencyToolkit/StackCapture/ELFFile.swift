#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
/// An ELF64 little-endian file (x86-64, arm64), mapped read-only, and its
/// section headers: what the symbol table and the DWARF readers read from.
///
/// The whole file is mapped read-only: address space, not memory, as only the
/// pages a lookup touches are read in. Every read is bounds-checked, so a
/// truncated or garbage file reads as absent sections, never a crash (only
/// loaded images' files are mapped, which the loader keeps mapped too). A
/// stripped library's symbols come from `separateDebugFile()`, else `.dynsym`.
final class ELFFile: @unchecked Sendable {
    // @unchecked: immutable after init; the mapping is read-only and lives
    // until deinit, so the buffers it hands out stay valid while the file does.

    struct Section: Sendable {
        let name: String
        let type: UInt32
        let flags: UInt64
        let offset: Int
        let size: Int
        let link: UInt32
        let entrySize: Int

        /// SHT_NOBITS: no bytes in the file (`.bss`, or a debug section of a
        /// file whose debug info was moved out).
        var occupiesFile: Bool { type != 8 }
        /// SHF_COMPRESSED (`-gz`, `objcopy --compress-debug-sections`).
        var isCompressed: Bool { flags & 0x800 != 0 }
        /// SHF_EXECINSTR.
        var isExecutable: Bool { flags & 0x4 != 0 }
    }

    /// The whole file.
    let bytes: UnsafeRawBufferPointer
    let sections: [Section]

    /// Opens and maps `path`; nil when it cannot be read or is not a
    /// little-endian ELF64 file with section headers.
    init?(path: String) {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }  // the mapping outlives the descriptor
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size >= 64, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let length = Int(status.st_size)
        guard let base = mmap(nil, length, PROT_READ, MAP_PRIVATE, descriptor, 0),
            base != UnsafeMutableRawPointer(bitPattern: -1)
        else { return nil }
        let bytes = UnsafeRawBufferPointer(start: base, count: length)
        guard let sections = ELFFile.sections(of: bytes) else {
            munmap(base, length)
            return nil
        }
        self.bytes = bytes
        self.sections = sections
    }

    deinit {
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }

    /// The bytes of the section named `name` (`.symtab`, `.debug_line`), or
    /// nil when there is none, it has no bytes in the file, or it is
    /// compressed (SHF_COMPRESSED): decompressing zlib would need zlib,
    /// which the toolkit does not link, so a compressed debug section reads
    /// as absent and frames keep their symbol names without file:line.
    func section(named name: String) -> UnsafeRawBufferPointer? {
        sections.first { $0.name == name }.flatMap(contents)
    }

    /// A section's bytes, with the same rules as `section(named:)`.
    func contents(of section: Section) -> UnsafeRawBufferPointer? {
        guard section.occupiesFile, !section.isCompressed else { return nil }
        return bytes.slice(at: section.offset, count: section.size)
    }

    /// The section headers of `file`, or nil when it is no ELF64 LE file or
    /// its header table lies outside it.
    static func sections(of file: UnsafeRawBufferPointer) -> [Section]? {
        // e_ident: magic, ELFCLASS64 (2), ELFDATA2LSB (1).
        guard file.count >= 64, file[0] == 0x7F, file[1] == 0x45, file[2] == 0x4C, file[3] == 0x46,
            file[4] == 2, file[5] == 1,
            let tableOffset = file.integer(at: 40, as: UInt64.self),
            let entrySize = file.integer(at: 58, as: UInt16.self),
            var count = file.integer(at: 60, as: UInt16.self).map(Int.init),
            var namesIndex = file.integer(at: 62, as: UInt16.self).map(Int.init),
            tableOffset > 0, tableOffset < UInt64(file.count), entrySize >= 64
        else { return nil }
        let table = Int(tableOffset)
        // Many sections: the real count and names index are in section 0.
        if count == 0, let real = file.integer(at: table + 32, as: UInt64.self) { count = Int(clamping: real) }
        if namesIndex == 0xFFFF, let real = file.integer(at: table + 40, as: UInt32.self) { namesIndex = Int(real) }
        guard count > 0, count <= (file.count - table) / Int(entrySize) else { return nil }

        struct Header { var nameOffset: UInt32, type: UInt32, flags: UInt64, offset: UInt64, size: UInt64, link: UInt32, entrySize: UInt64 }
        var headers: [Header] = []
        headers.reserveCapacity(count)
        for index in 0..<count {
            let at = table + index * Int(entrySize)
            guard let nameOffset = file.integer(at: at, as: UInt32.self),
                let type = file.integer(at: at + 4, as: UInt32.self),
                let flags = file.integer(at: at + 8, as: UInt64.self),
                let offset = file.integer(at: at + 24, as: UInt64.self),
                let size = file.integer(at: at + 32, as: UInt64.self),
                let link = file.integer(at: at + 40, as: UInt32.self),
                let sectionEntrySize = file.integer(at: at + 56, as: UInt64.self)
            else { return nil }
            headers.append(Header(nameOffset: nameOffset, type: type, flags: flags, offset: offset, size: size, link: link, entrySize: sectionEntrySize))
        }
        let names: UnsafeRawBufferPointer? =
            headers.indices.contains(namesIndex)
            ? file.slice(at: Int(clamping: headers[namesIndex].offset), count: Int(clamping: headers[namesIndex].size)) : nil
        return headers.map { header in
            Section(
                name: names.flatMap { $0.cString(at: Int(header.nameOffset)) } ?? "",
                type: header.type, flags: header.flags,
                offset: Int(clamping: header.offset), size: Int(clamping: header.size),
                link: header.link, entrySize: Int(clamping: header.entrySize))
        }
    }
}

extension UnsafeRawBufferPointer {
    /// The little-endian integer at `offset`, or nil when it does not lie
    /// wholly inside the buffer.
    func integer<T: FixedWidthInteger>(at offset: Int, as type: T.Type) -> T? {
        guard offset >= 0, offset <= count - MemoryLayout<T>.size, let baseAddress else { return nil }
        return T(littleEndian: baseAddress.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    /// `count` bytes from `offset`, or nil when they do not lie wholly inside.
    func slice(at offset: Int, count length: Int) -> UnsafeRawBufferPointer? {
        guard offset >= 0, length >= 0, offset <= count, length <= count - offset, let baseAddress else { return nil }
        return UnsafeRawBufferPointer(start: baseAddress + offset, count: length)
    }

    /// The NUL-terminated UTF-8 string at `offset`, or nil when it runs off the end.
    func cString(at offset: Int) -> String? {
        guard offset >= 0, offset < count else { return nil }
        let rest = self[offset...]
        guard let end = rest.firstIndex(of: 0) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(rebasing: self[offset..<end]), as: UTF8.self)
    }
}
#endif

#if os(Linux)
extension ELFFile {
    /// The file's GNU build ID (the `NT_GNU_BUILD_ID` note), as lower-case hex.
    var buildID: String? {
        for section in sections where section.type == 7 {  // SHT_NOTE
            guard let notes = contents(of: section) else { continue }
            var at = 0
            // Each note: namesz, descsz, type, then name and desc, each padded to 4.
            while let nameSize = notes.integer(at: at, as: UInt32.self), let descriptionSize = notes.integer(at: at + 4, as: UInt32.self),
                let type = notes.integer(at: at + 8, as: UInt32.self)
            {
                let nameLength = (Int(nameSize) + 3) & ~3
                let descriptionLength = (Int(descriptionSize) + 3) & ~3
                if type == 3, nameSize == 4, notes.integer(at: at + 12, as: UInt32.self) == 0x0055_4E47,  // "GNU\0"
                    let description = notes.slice(at: at + 12 + nameLength, count: Int(descriptionSize)), !description.isEmpty
                {
                    return description.map { byte in (byte < 16 ? "0" : "") + String(byte, radix: 16) }.joined()
                }
                at += 12 + nameLength + descriptionLength
            }
        }
        return nil
    }

    /// The separate debug file a distribution's debug package installs for
    /// this file, `/usr/lib/debug/.build-id/ab/cdef….debug` (Debian's and
    /// Fedora's `-dbg`/`-debuginfo` packages): the full `.symtab` (and DWARF)
    /// of a library shipped stripped, such as the C library's `start_thread`.
    /// Files named by `.gnu_debuglink` alone are not searched.
    func separateDebugFile() -> ELFFile? {
        guard let id = buildID, id.count > 2 else { return nil }
        return ELFFile(path: "/usr/lib/debug/.build-id/\(id.prefix(2))/\(id.dropFirst(2)).debug")
    }
}
#endif
