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
struct MemoryRegions {
    struct Region {
        var start: UInt
        var end: UInt
        var executable: Bool
    }

    /// Sorted by start address.
    let regions: [Region]

    /// Reads `/proc/self/maps` whole and parses its bytes in place (no
    /// string per line: a process with a thousand mappings is read in a
    /// fraction of a millisecond, once per stall).
    static func current() -> MemoryRegions {
        let descriptor = open("/proc/self/maps", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return MemoryRegions(regions: []) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        var regions: [Region] = []
        bytes.withUnsafeBufferPointer { all in
            var start = 0
            for index in all.indices where all[index] == UInt8(ascii: "\n") {
                if let region = parse(line: UnsafeBufferPointer(rebasing: all[start..<index])) { regions.append(region) }
                start = index + 1
            }
        }
        return MemoryRegions(regions: regions.sorted { $0.start < $1.start })
    }

    /// `START-END PERMS ...`, hex addresses.
    static func parse(mapsLine text: String) -> Region? {
        var text = text
        return text.withUTF8 { parse(line: $0) }
    }

    /// `START-END PERMS ...` as bytes.
    static func parse(line: UnsafeBufferPointer<UInt8>) -> Region? {
        var index = 0
        func hex() -> UInt? {
            var value: UInt = 0
            let first = index
            while index < line.count, index - first < 16 {
                let byte = line[index]
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
                default: return index > first ? value : nil
                }
                value = value << 4 | UInt(digit)
                index += 1
            }
            return index > first ? value : nil
        }
        guard let start = hex(), index < line.count, line[index] == UInt8(ascii: "-") else { return nil }
        index += 1
        guard let end = hex(), index + 4 <= line.count, line[index] == UInt8(ascii: " ") else { return nil }
        // PERMS is `rwxp`: the third letter says executable.
        return Region(start: start, end: end, executable: line[index + 3] == UInt8(ascii: "x"))
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
