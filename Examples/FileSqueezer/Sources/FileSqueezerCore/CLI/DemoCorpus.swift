#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a folder of mixed files for `--demo` and benchmarks: text-like
/// files (deflate shrinks them to about a third) and random ones (they do
/// not shrink), of varied sizes, the same bytes every time.
///
/// ```swift
/// let (files, bytes) = try DemoCorpus.write(into: "/tmp/corpus", megabytes: 150)
/// ```
enum DemoCorpus {
    struct WriteError: Error, CustomStringConvertible {
        let description: String
    }

    /// - Returns: How many files and bytes were written.
    /// - Throws: ``WriteError`` naming the file that could not be written.
    static func write(into folder: String, megabytes: Int) throws(WriteError) -> (files: Int, bytes: Int64) {
        do {
            try System.makeFolders(folder)
        } catch {
            throw WriteError(description: "\(error.path): cannot create the folder: \(System.describe(errno: error.errno))")
        }
        let total = Int64(megabytes) * 1_000_000
        // Relative sizes: a few large files dominate, as in real folders.
        let shape: [Double] = [0.02, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 2.5]
        let unit = Double(total) / (shape.reduce(0, +) * 2)
        var random = SplitMix64(seed: 0x5EED)
        var written: Int64 = 0
        var count = 0
        try writeFile(folder + "/empty.txt", size: 0, text: true, random: &random)
        count += 1
        for round in 0..<2 {
            for (position, share) in shape.enumerated() {
                let text = (position + round) % 3 != 2  // two text files in three
                let size = Int64(unit * share)
                let name = text ? "notes-\(round)\(position).txt" : "random-\(round)\(position).bin"
                try writeFile(folder + "/" + name, size: size, text: text, random: &random)
                written += size
                count += 1
            }
        }
        return (count, written)
    }

    private static func writeFile(_ path: String, size: Int64, text: Bool, random: inout SplitMix64) throws(WriteError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(description: "\(path): cannot create: \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        var remaining = size
        var block = [UInt8]()
        block.reserveCapacity(1 << 20)
        while remaining > 0 {
            let length = Int(min(remaining, 1 << 20))
            block.removeAll(keepingCapacity: true)
            if text { appendText(to: &block, count: length, random: &random) } else { appendRandom(to: &block, count: length, random: &random) }
            let done = block.withUnsafeBytes { writeBlock(descriptor, $0) }
            guard done == length else { throw WriteError(description: "\(path): cannot write: \(String(cString: strerror(errno)))") }
            remaining -= Int64(length)
        }
    }

    private static let words: [[UInt8]] = """
        the of and to in is that for it as was with be by on not he this are or his from at which but have an \
        they you were her she there been one all we their has would when if so no will more out up into do \
        compress file folder actor task main thread queue progress display render chunk stream buffer deflate \
        level window gzip output input error cancel signal report batch value clock interval continuation \
        resume suspend executor lane pool worker parallel sequential throughput latency memory bytes ratio \
        swift concurrency structured isolation sendable observable summary result status exit temporary
        """.split(separator: " ").map { Array($0.utf8) }

    private static func appendText(to block: inout [UInt8], count: Int, random: inout SplitMix64) {
        var wordsOnLine = 0
        while block.count < count {
            let value = random.next()
            block.append(contentsOf: words[Int(value % UInt64(words.count))])
            wordsOnLine += 1
            if wordsOnLine > 8 + Int(value >> 60) {
                block.append(10)  // newline
                wordsOnLine = 0
            } else {
                block.append(32)
            }
        }
        block.removeLast(block.count - count)
    }

    private static func appendRandom(to block: inout [UInt8], count: Int, random: inout SplitMix64) {
        while block.count < count {
            withUnsafeBytes(of: random.next()) { block.append(contentsOf: $0) }
        }
        block.removeLast(block.count - count)
    }
}

/// One `write(2)`: a free function, so the name finds libc's `write` on every
/// platform (inside `DemoCorpus`, `write` would mean `DemoCorpus.write`).
private func writeBlock(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    write(descriptor, bytes.baseAddress!, bytes.count)
}

/// A tiny, fast, seedable generator: the demo corpus is identical on every run.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
