import Foundation
import Testing
@testable import FileSqueezerCore
import TestSupport

@Suite("zlib stream: the tiny-input memory level")
struct ZlibStreamTests {
    /// Raw deflate of `input` by a stream at `memoryLevel`, reset first as for every file.
    static func deflated(_ input: [UInt8], level: Int, memoryLevel: Int) throws -> [UInt8] {
        let stream = try ZlibStream(level: level, memoryLevel: memoryLevel)
        let output = ByteBuffer(capacity: 64)
        try stream.reset(dictionary: UnsafeRawBufferPointer(start: nil, count: 0))
        try input.withUnsafeBytes { try stream.compress($0, ending: .finish, into: output) }
        return Array(output.bytes)
    }

    /// Text of words drawn from 300 made-up ones: many distinct three-letter
    /// runs, whose hashes collide in a small hash table (where a smaller
    /// memory level could find other matches), and words that repeat (so
    /// there are matches to find).
    static func words(_ count: Int, seed: UInt64) -> [UInt8] {
        let noise = Array(Sample.random(8 * 300 + 2 * count, seed: seed))
        let vocabulary = (0..<300).map { index in
            noise[(8 * index)..<(8 * index + 2 + Int(noise[8 * index] % 6))].map { UInt8(ascii: "a") + $0 % 26 }
        }
        var text: [UInt8] = []
        var next = 8 * 300
        while text.count < count {
            text += vocabulary[Int(noise[next]) % 300] + [UInt8(ascii: " ")]
            next += 1
        }
        return Array(text.prefix(count))
    }

    static func inputs(_ size: Int) -> [[UInt8]] {
        (1...12).map { words(size, seed: UInt64($0)) } + [Array(Sample.random(size, seed: 9).prefix(size))]
    }

    /// Whole files up to `Deflater.tinyInputLimit` bytes, at the levels
    /// that take the tiny stream (4–9, zlib's lazy matching), are deflated at
    /// memory level 4: a 4 KiB hash to clear per file instead of 64 KiB. The
    /// output is the default memory level's, byte for byte.
    @Test("at levels 4–9, up to the tiny limit, memory level 4 writes the default's bytes", arguments: Deflater.tinyStreamLevels)
    func sameBytes(level: Int) throws {
        for size in [0, 1, 37, 300, 512, 1000, Int(Deflater.tinyInputLimit)] {
            for input in Self.inputs(size) {
                #expect(try Self.deflated(input, level: level, memoryLevel: 4) == Self.deflated(input, level: level, memoryLevel: 8))
            }
        }
    }

    /// Why levels 1–3 keep the default stream: their fast matcher looks at
    /// only a few candidates, and in a smaller hash table the colliding ones
    /// take that budget, so the bytes differ (found by
    /// Benchmarks/Scripts/behaviour-unchanged.sh on a 1,000-byte text at
    /// level 1). This shows the comparison above can fail.
    @Test("at level 1 memory level 4 does change some outputs, so levels 1–3 keep the default stream")
    func fastLevelsDiffer() throws {
        #expect(!Deflater.tinyStreamLevels.contains(1))
        let differing = try Self.inputs(1000).filter { try Self.deflated($0, level: 1, memoryLevel: 4) != Self.deflated($0, level: 1, memoryLevel: 8) }
        #expect(!differing.isEmpty)
    }
}
