#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
/// The mapped regions of this process (`/proc/self/maps`): where each
/// thread's stack ends, and which addresses are code.
///
/// ```swift
/// let regions = MemoryRegions.current()
/// let isCode = regions.isExecutable(0x7f2c_1a4f_626f)
/// ```
struct MemoryRegions {
    struct Region {
        var start: UInt
        var end: UInt
        var executable: Bool
    }

    /// Sorted by start address.
    let regions: [Region]

    static func current() -> MemoryRegions {
        guard let file = fopen("/proc/self/maps", "r") else { return MemoryRegions(regions: []) }
        defer { fclose(file) }
        var regions: [Region] = []
        var line = [CChar](repeating: 0, count: 4096)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let region = parse(mapsLine: text) { regions.append(region) }
        }
        return MemoryRegions(regions: regions.sorted { $0.start < $1.start })
    }

    /// `START-END PERMS ...`, hex addresses.
    static func parse(mapsLine text: String) -> Region? {
        let fields = text.split(separator: " ", maxSplits: 2)
        guard fields.count >= 2 else { return nil }
        let range = fields[0].split(separator: "-")
        guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16) else {
            return nil
        }
        return Region(start: start, end: end, executable: fields[1].dropFirst(2).first == "x")
    }

    func region(containing address: UInt) -> Region? {
        var low = 0
        var high = regions.count
        while low < high {
            let middle = (low + high) / 2
            if regions[middle].end <= address { low = middle + 1 } else { high = middle }
        }
        guard low < regions.count, regions[low].start <= address else { return nil }
        return regions[low]
    }

    func isExecutable(_ address: UInt) -> Bool { region(containing: address)?.executable ?? false }
}
#endif
