#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
/// One image mapped in this process: the executable, a shared library, or
/// the vDSO (which has no file).
struct LoadedImage: Hashable, Sendable {
    /// The file the image was loaded from; the executable's comes from
    /// `/proc/self/exe`, since the loader names it "".
    let path: String
    /// What the loader added to the file's virtual addresses: a symbol at
    /// file address `a` runs at `a + loadBias`.
    let loadBias: UInt
    /// Where its executable segments are mapped: a code address is in one
    /// of them.
    let executableRanges: [Range<UInt>]

    /// The file name: `libc.so.6`.
    var name: String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    func contains(_ address: UInt) -> Bool {
        executableRanges.contains { $0.contains(address) }
    }

    /// The address in the file's own numbering (what `nm`, `addr2line -e`
    /// and the symbol table use).
    func fileAddress(of address: UInt) -> UInt {
        address &- loadBias
    }
}

/// The images loaded in this process, from `dl_iterate_phdr`.
enum LoadedImages {
    // The C library's `dl_iterate_phdr` (link.h is not in the Glibc
    // module), found once with `dlsym`.
    private typealias Callback = @convention(c) (UnsafeRawPointer?, Int, UnsafeMutableRawPointer?) -> Int32
    private typealias Iterate = @convention(c) (Callback?, UnsafeMutableRawPointer?) -> Int32
    private static let iterateAddress = UInt(bitPattern: dlsym(nil, "dl_iterate_phdr"))

    /// The images loaded now, in the loader's order (the executable first).
    /// Costs a walk of the loader's list, a few microseconds per image: the
    /// symbolicator lists them once and again only when an address falls in
    /// none of them (a library `dlopen`ed since).
    static func current() -> [LoadedImage] {
        var collected: [(name: String, bias: UInt, ranges: [Range<UInt>])] = []
        guard let address = UnsafeRawPointer(bitPattern: iterateAddress) else { return [] }
        let iterate = unsafeBitCast(address, to: Iterate.self)
        withUnsafeMutablePointer(to: &collected) { pointer in
            _ = iterate({ info, _, context in
                guard let info, let context else { return 0 }
                let images = context.assumingMemoryBound(to: [(name: String, bias: UInt, ranges: [Range<UInt>])].self)
                // struct dl_phdr_info: dlpi_addr, dlpi_name, dlpi_phdr, dlpi_phnum.
                let bias = UInt(info.load(as: UInt64.self))
                let name = info.load(fromByteOffset: 8, as: UnsafePointer<CChar>?.self).map { String(cString: $0) } ?? ""
                let headers = info.load(fromByteOffset: 16, as: UnsafeRawPointer?.self)
                let count = Int(info.load(fromByteOffset: 24, as: UInt16.self))
                var ranges: [Range<UInt>] = []
                for index in 0..<(headers == nil ? 0 : count) {
                    // Elf64_Phdr (56 bytes): p_type, p_flags, …, p_vaddr at 16, p_memsz at 40.
                    let header = headers! + index * 56
                    // PT_LOAD with PF_X: the code.
                    guard header.load(as: UInt32.self) == 1, header.load(fromByteOffset: 4, as: UInt32.self) & 1 != 0 else { continue }
                    let start = bias &+ UInt(header.load(fromByteOffset: 16, as: UInt64.self))
                    let size = UInt(header.load(fromByteOffset: 40, as: UInt64.self))
                    if size > 0 { ranges.append(start..<(start &+ size)) }
                }
                images.pointee.append((name, bias, ranges))
                return 0
            }, pointer)
        }
        // Read after the walk: the loader holds its lock during the callback.
        let executable = executablePath()
        return collected.compactMap { image in
            guard !image.ranges.isEmpty else { return nil }
            let path = image.name.isEmpty ? executable : image.name
            return LoadedImage(path: path, loadBias: image.bias, executableRanges: image.ranges)
        }
    }

    /// The image whose code contains `address`, if any of `images`.
    static func image(containing address: UInt, in images: [LoadedImage]) -> LoadedImage? {
        images.first { $0.contains(address) }
    }

    /// `/proc/self/exe`'s target.
    static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBufferPointer { readlink("/proc/self/exe", $0.baseAddress!, $0.count - 1) }
        guard count > 0 else { return "/proc/self/exe" }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
#endif
