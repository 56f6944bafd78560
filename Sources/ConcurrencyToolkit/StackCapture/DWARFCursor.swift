/// Bounds-checked reading of DWARF's encodings over a section's bytes.
///
/// A read that would run past `end` reads zero, moves the cursor to `end`
/// and clears `isValid`: every loop over a section stops at `isAtEnd`, so a
/// truncated or malformed section ends the parse with what was read before,
/// never a crash or an endless loop. Offsets are the section's own (absolute),
/// so a DIE's offset is the one references and `llvm-dwarfdump` use.
struct DWARFCursor {
    let bytes: UnsafeRawBufferPointer
    /// Where reading stops: the section's end, or the end of one unit.
    let end: Int
    private(set) var offset: Int
    /// False once a read ran past `end` or met an encoding it cannot size.
    private(set) var isValid = true

    init(_ bytes: UnsafeRawBufferPointer, at offset: Int = 0, end: Int? = nil) {
        self.bytes = bytes
        self.end = min(end ?? bytes.count, bytes.count)
        self.offset = max(0, offset)
        if self.offset > self.end { fail() }
    }

    /// A cursor that cannot read (a section that is absent).
    init?(_ bytes: UnsafeRawBufferPointer?, at offset: UInt64, end: UInt64? = nil) {
        guard let bytes, offset < UInt64(bytes.count) else { return nil }
        self.init(bytes, at: Int(offset), end: end.map { Int(clamping: $0) })
    }

    var isAtEnd: Bool { offset >= end }
    var remaining: Int { max(0, end - offset) }

    /// Stops the parse: what follows cannot be read.
    mutating func fail() {
        isValid = false
        offset = end
    }

    mutating func seek(to newOffset: Int) {
        if newOffset < 0 || newOffset > end { fail() } else { offset = newOffset }
    }

    mutating func skip(_ count: UInt64) {
        guard count <= UInt64(remaining) else { return fail() }
        offset += Int(count)
    }

    mutating func u8() -> UInt8 { UInt8(truncatingIfNeeded: unsigned(size: 1)) }
    mutating func u16() -> UInt16 { UInt16(truncatingIfNeeded: unsigned(size: 2)) }
    mutating func u32() -> UInt32 { UInt32(truncatingIfNeeded: unsigned(size: 4)) }
    mutating func u64() -> UInt64 { unsigned(size: 8) }
    mutating func i8() -> Int8 { Int8(bitPattern: u8()) }

    /// A little-endian unsigned integer of 1 to 8 bytes (3 for `DW_FORM_strx3`).
    mutating func unsigned(size: Int) -> UInt64 {
        guard size >= 1, size <= 8, size <= remaining else {
            fail()
            return 0
        }
        var value: UInt64 = 0
        for index in 0..<size {
            value |= UInt64(bytes[offset + index]) << (8 * UInt64(index))
        }
        offset += size
        return value
    }

    /// ULEB128. Bits past the 64th are dropped; the bytes are still consumed.
    mutating func uleb() -> UInt64 { leb128().value }

    /// SLEB128, sign-extended from its last byte.
    mutating func sleb() -> Int64 {
        let (value, shift, last) = leb128()
        return Int64(bitPattern: shift < 64 && last & 0x40 != 0 ? value | ~0 << shift : value)
    }

    /// One LEB128 number's bits, how many there were, and its last byte;
    /// all zero when the bytes end first.
    private mutating func leb128() -> (value: UInt64, shift: UInt64, last: UInt8) {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < end else {
                fail()
                return (0, 0, 0)
            }
            let byte = bytes[offset]
            offset += 1
            if shift < 64 { value |= UInt64(byte & 0x7f) << shift }
            shift += 7
            if byte & 0x80 == 0 { return (value, shift, byte) }
        }
    }

    /// A NUL-terminated string; nil (and the cursor stops) when it has no NUL.
    mutating func cString() -> String? {
        guard let nul = bytes[offset..<end].firstIndex(of: 0) else {
            fail()
            return nil
        }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<nul]), as: UTF8.self)
        offset = nul + 1
        return text
    }

    /// Moves past a NUL-terminated string without making it.
    mutating func skipCString() {
        guard let nul = bytes[offset..<end].firstIndex(of: 0) else { return fail() }
        offset = nul + 1
    }

    /// A section offset: 4 bytes in 32-bit DWARF, 8 in 64-bit DWARF.
    mutating func offset(is64: Bool) -> UInt64 { unsigned(size: is64 ? 8 : 4) }

    /// A unit's initial length: 0xffffffff announces 64-bit DWARF and an
    /// 8-byte length; 0xfffffff0–0xfffffffe are reserved and stop the parse.
    /// Returns the end of the unit, clamped to the cursor's end (a
    /// truncated unit yields what it holds).
    mutating func unitLength() -> (end: Int, is64: Bool)? {
        let short = u32()
        guard isValid, short < 0xffff_fff0 || short == 0xffff_ffff else {
            fail()
            return nil
        }
        let is64 = short == 0xffff_ffff
        let length = is64 ? u64() : UInt64(short)
        guard isValid else { return nil }
        return (offset + Int(clamping: min(length, UInt64(remaining))), is64)
    }

    /// The NUL-terminated string at `offset` of `section` (`.debug_str`,
    /// `.debug_line_str`), or nil when the offset is outside it.
    static func string(in section: UnsafeRawBufferPointer?, at offset: UInt64) -> String? {
        guard var cursor = DWARFCursor(section, at: offset) else { return nil }
        return cursor.cString()
    }
}
