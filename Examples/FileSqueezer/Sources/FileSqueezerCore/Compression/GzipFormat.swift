import CZlib

/// The gzip framing (RFC 1952) around raw deflate data, and the CRC-32 it
/// carries: one member is a 10-byte header, a deflate stream, then the CRC-32
/// and the size (mod 2^32) of the original, both little-endian.
///
/// ```swift
/// var file = GzipFormat.header(level: 6)
/// // ... the deflate stream of `original` ...
/// file += GzipFormat.trailer(crc: GzipFormat.crc(of: original), size: Int64(original.count))
/// ```
///
/// Segments compressed apart are joined into one member by writing their
/// deflate streams in order and combining their CRCs with ``combine(_:_:secondLength:)``.
enum GzipFormat {
    /// The 10-byte header: magic, deflate, no flags, no time stamp, the
    /// extra-flags byte zlib and gzip write for `level`, OS Unix.
    static func header(level: Int) -> [UInt8] {
        let extraFlags: UInt8 = level >= 9 ? 2 : level == 1 ? 4 : 0
        return [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, extraFlags, 3]
    }

    /// The 8-byte trailer: CRC-32 and size mod 2^32, little-endian.
    static func trailer(crc: UInt32, size: Int64) -> [UInt8] {
        let length = UInt32(truncatingIfNeeded: size)
        return (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) }
            + (0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * $0)) }
    }

    /// The CRC-32 of `bytes` continued from `crc` (0 to start).
    static func crc(_ crc: UInt32 = 0, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return crc }
        return UInt32(truncatingIfNeeded: crc32_z(UInt(crc), base.assumingMemoryBound(to: Bytef.self), bytes.count))
    }

    /// The CRC-32 of `bytes`.
    static func crc(of bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { crc(0, $0) }
    }

    /// The CRC-32 of two pieces one after the other, from the CRC of each and
    /// the length of the second.
    static func combine(_ first: UInt32, _ second: UInt32, secondLength: Int64) -> UInt32 {
        UInt32(truncatingIfNeeded: crc32_combine(UInt(first), UInt(second), off_t(secondLength)))
    }
}
