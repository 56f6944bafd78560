/// Hand-made DWARF: little-endian integers, LEB128, strings, and units whose
/// initial length is filled in once their body is known.
struct DWARFTestBytes {
    var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u16(_ value: UInt16) { int(UInt64(value), size: 2) }
    mutating func u32(_ value: UInt32) { int(UInt64(value), size: 4) }
    mutating func u64(_ value: UInt64) { int(value, size: 8) }

    mutating func int(_ value: UInt64, size: Int) {
        for index in 0..<size { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
    }

    mutating func uleb(_ value: UInt64) {
        var rest = value
        repeat {
            var byte = UInt8(rest & 0x7f)
            rest >>= 7
            if rest != 0 { byte |= 0x80 }
            bytes.append(byte)
        } while rest != 0
    }

    mutating func sleb(_ value: Int64) {
        var rest = value
        while true {
            let byte = UInt8(truncatingIfNeeded: rest) & 0x7f
            rest >>= 7
            let done = (rest == 0 && byte & 0x40 == 0) || (rest == -1 && byte & 0x40 != 0)
            bytes.append(done ? byte : byte | 0x80)
            if done { return }
        }
    }

    mutating func cString(_ text: String) { bytes += Array(text.utf8) + [0] }

    /// `body` preceded by its length: 4 bytes, or 0xffffffff and 8 bytes for 64-bit DWARF.
    mutating func unit(is64: Bool = false, _ body: (inout DWARFTestBytes) -> Void) {
        var inner = DWARFTestBytes()
        body(&inner)
        if is64 {
            u32(0xffff_ffff)
            u64(UInt64(inner.bytes.count))
        } else {
            u32(UInt32(inner.bytes.count))
        }
        bytes += inner.bytes
    }
}

/// Runs `body` with `bytes` as a section that lives for the call.
func withSection<Result>(_ bytes: [UInt8], _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
    try bytes.withUnsafeBytes(body)
}
