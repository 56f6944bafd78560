import CZlib

/// The gzip framing (RFC 1952) around raw deflate data, and the CRC-32 it
/// carries: one member is a header (10 bytes, then the original's name), a
/// deflate stream, then the CRC-32 and the size (mod 2^32) of the original,
/// both little-endian.
///
/// ```swift
/// var file = GzipFormat.header(level: 6, name: Array("a.log".utf8), modificationTime: stamp)
/// // ... the deflate stream of `original` ...
/// file += GzipFormat.trailer(crc: GzipFormat.crc(of: original), size: Int64(original.count))
/// ```
///
/// Segments compressed apart are joined into one member by writing their
/// deflate streams in order and combining their CRCs with ``combine(_:_:secondLength:)``.
enum GzipFormat {
    /// The header: magic, deflate, the extra-flags byte zlib and gzip write
    /// for `level`, OS Unix; then, as gzip stores them by default, the
    /// original's modification time (MTIME, seconds since 1970; 0 means
    /// none) and, when `name` is given, its file name (FNAME: the bytes of
    /// the name, zero-terminated). 10 bytes without a name.
    ///
    /// ```swift
    /// GzipFormat.header(level: 6)                                    // gzip -n: no name, MTIME 0
    /// GzipFormat.header(level: 6, name: Array("a.log".utf8), modificationTime: 1_700_000_000)
    /// ```
    static func header(level: Int, name: [UInt8]? = nil, modificationTime: UInt32 = 0) -> [UInt8] {
        let extraFlags: UInt8 = level >= 9 ? 2 : level == 1 ? 4 : 0
        // One allocation: a run of tiny files writes a header per file.
        var header: [UInt8] = []
        header.reserveCapacity(11 + (name?.count ?? 0))
        header.append(0x1F)
        header.append(0x8B)
        header.append(8)
        header.append(name == nil ? 0 : fileNameFlag)
        appendLittleEndian(modificationTime, to: &header)
        header.append(extraFlags)
        header.append(3)
        if let name {
            // A file name has no zero byte, so the terminator ends it.
            for byte in name where byte != 0 { header.append(byte) }
            header.append(0)
        }
        return header
    }

    private static func appendLittleEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    /// FLG.FNAME: a zero-terminated original file name follows the fixed header.
    static let fileNameFlag: UInt8 = 0x08

    /// The name gzip stores for the original at `path`: the bytes of its
    /// last component (the name `gzip -N -d` restores).
    ///
    /// ```swift
    /// GzipFormat.storedName(ofPath: Array("/logs/a.log".utf8))   // "a.log"
    /// ```
    static func storedName(ofPath path: [UInt8]) -> [UInt8] {
        let slash = UInt8(ascii: "/")
        var end = path.endIndex
        while end > path.startIndex + 1, path[end - 1] == slash { end -= 1 }
        let start = path[..<end].lastIndex(of: slash).map { $0 + 1 } ?? path.startIndex
        return Array(path[start..<end])
    }

    /// The suffixes gzip takes for "already compressed" (compared ignoring
    /// case): gzip's `.gz`, `-gz`, `.z`, `-z`, `_z` (which also match pack
    /// and compress's `.Z`), and tar's `.tgz`, `.taz`.
    static let compressedSuffixes = [".gz", ".z", ".taz", ".tgz", "-gz", "-z", "_z"].map { Array($0.utf8) }

    /// The suffix of `name` (as it is spelled there) that tells gzip the
    /// file is compressed already, or `nil`: `"a.TGZ"` gives `".TGZ"`. As in
    /// gzip, a suffix counts only after at least one other byte, so a file
    /// named just `.gz` is compressed.
    ///
    /// ```swift
    /// GzipFormat.compressedSuffix(of: Array("backup.tgz".utf8))   // ".tgz": skipped, as gzip does
    /// GzipFormat.compressedSuffix(of: Array("notes.gzip".utf8))   // nil: compressed
    /// ```
    static func compressedSuffix(of name: [UInt8]) -> String? {
        // Discovery asks this of every file: every suffix ends in z or Z,
        // so most names are answered by their last byte; the others are
        // compared in place, lowered byte by byte.
        guard let last = name.last, last | 0x20 == UInt8(ascii: "z") else { return nil }
        func lowered(_ byte: UInt8) -> UInt8 { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte }
        let suffix = compressedSuffixes.first { suffix in
            name.count > suffix.count && zip(name.suffix(suffix.count), suffix).allSatisfy { lowered($0) == $1 }
        }
        return suffix.map { String(decoding: name.suffix($0.count), as: UTF8.self) }
    }

    /// The MTIME field for a modification time: its seconds, or 0 (no time
    /// stamp) when they do not fit in 32 bits unsigned, as gzip does.
    static func timeStamp(seconds: Int64) -> UInt32 {
        UInt32(exactly: seconds) ?? 0
    }

    /// The 8-byte trailer: CRC-32 and size mod 2^32, little-endian.
    static func trailer(crc: UInt32, size: Int64) -> [UInt8] {
        var trailer: [UInt8] = []
        trailer.reserveCapacity(8)
        appendLittleEndian(crc, to: &trailer)
        appendLittleEndian(UInt32(truncatingIfNeeded: size), to: &trailer)
        return trailer
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
