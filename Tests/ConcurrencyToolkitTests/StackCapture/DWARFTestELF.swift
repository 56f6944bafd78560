@testable import ConcurrencyToolkit
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A stand-in for the ELF reader, for tests only: an ELF64 file read
/// whole, its sections by name, and the DWARF ones as `DWARFSections`.
final class DWARFTestELF {
    private let file: UnsafeMutableRawBufferPointer
    private var sections: [String: (offset: Int, size: Int, address: UInt64, isCompressed: Bool)] = [:]

    init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path), data.count > 64 else { return nil }
        file = .allocate(byteCount: data.count, alignment: 16)
        file.copyBytes(from: data)
        func int(_ offset: Int, _ size: Int) -> Int {
            guard offset >= 0, offset + size <= file.count else { return 0 }
            return (0..<size).reduce(0) { $0 | Int(file[offset + $1]) << (8 * $1) }
        }
        guard file[0] == 0x7f, file[1] == 0x45, file[4] == 2, file[5] == 1 else { return nil }  // ELF64, little-endian
        let headers = int(0x28, 8), size = int(0x3a, 2), count = int(0x3c, 2), names = int(0x3e, 2)
        let namesOffset = int(headers + names * size + 24, 8)
        for index in 0..<count {
            let header = headers + index * size
            let nameOffset = namesOffset + int(header, 4)
            guard nameOffset < file.count, let end = file[nameOffset...].firstIndex(of: 0) else { continue }
            let name = String(decoding: file[nameOffset..<end], as: UTF8.self)
            let flags = int(header + 8, 8), address = int(header + 16, 8), offset = int(header + 24, 8)
            let length = int(header + 32, 8)
            guard offset + length <= file.count else { continue }
            sections[name] = (offset, length, UInt64(address), flags & 0x800 != 0)  // SHF_COMPRESSED
        }
    }

    deinit { file.deallocate() }

    var hasCompressedDWARF: Bool { sections.contains { $0.key.hasPrefix(".debug") && $0.value.isCompressed } }

    /// The addresses a section is loaded at (`.text`: the code).
    func addresses(of name: String) -> Range<UInt64>? {
        sections[name].map { $0.address..<$0.address + UInt64($0.size) }
    }

    func section(_ name: String) -> UnsafeRawBufferPointer? {
        guard let section = sections[name], !section.isCompressed else { return nil }
        return UnsafeRawBufferPointer(rebasing: file[section.offset..<section.offset + section.size])
    }

    /// The DWARF sections; valid while this object lives.
    var dwarf: DWARFSections {
        DWARFSections(
            info: section(".debug_info"), abbrev: section(".debug_abbrev"), line: section(".debug_line"),
            lineStr: section(".debug_line_str"), str: section(".debug_str"), strOffsets: section(".debug_str_offsets"),
            addr: section(".debug_addr"), ranges: section(".debug_ranges"), rnglists: section(".debug_rnglists"),
            aranges: section(".debug_aranges"))
    }

    /// The load bias (runtime address − file address) of the image holding
    /// `address`: its base, for a file whose first segment starts at 0, as a
    /// PIE's or a library's does. `dladdr` is looked up: Glibc's module lacks it.
    static func loadBias(of address: UInt) -> UInt? {
        typealias Dladdr = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "dladdr") else { return nil }
        var info: (UInt, UInt, UInt, UInt) = (0, 0, 0, 0)  // Dl_info: name, base, symbol, its address
        let found = withUnsafeMutableBytes(of: &info) {
            unsafeBitCast(symbol, to: Dladdr.self)(UnsafeRawPointer(bitPattern: address), $0.baseAddress)
        }
        return found != 0 ? info.1 : nil
    }
}
