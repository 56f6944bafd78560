import Foundation
import Testing
@testable import FileSqueezerCore
import TestSupport

@Suite("zlib stream: the tiny-input memory level")
struct ZlibStreamTests {
    /// Raw deflate of `input` by a stream at `memoryLevel`, reset first as for every file.
    static func deflated(_ input: Data, memoryLevel: Int) throws -> [UInt8] {
        let stream = try ZlibStream(level: 6, memoryLevel: memoryLevel)
        let output = ByteBuffer(capacity: 64)
        try stream.reset(dictionary: UnsafeRawBufferPointer(start: nil, count: 0))
        try input.withUnsafeBytes { try stream.compress($0, ending: .finish, into: output) }
        return Array(output.bytes)
    }

    /// Whole files up to `Deflater.tinyInputLimit` bytes use memory level 4
    /// (a 4 KiB hash to clear per file instead of 64 KiB). Up to that size
    /// its block buffer holds every symbol and its hash finds the same
    /// matches: the output is the default level's, byte for byte, so no
    /// tiny file compresses worse.
    @Test("up to the tiny limit, memory level 4 writes the same bytes as the default", arguments: [
        0, 1, 37, 300, 512, Int(Deflater.tinyInputLimit),
    ])
    func sameBytes(_ size: Int) throws {
        for input in [Sample.text(size, seed: UInt64(size) + 3).prefix(size), Sample.random(size).prefix(size)] {
            #expect(try Self.deflated(Data(input), memoryLevel: 4) == Self.deflated(Data(input), memoryLevel: 8))
        }
    }
}
