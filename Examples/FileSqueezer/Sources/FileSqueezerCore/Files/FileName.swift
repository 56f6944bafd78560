/// File names are bytes; the app's messages, its `--json` report and
/// ``FilePlan/relativePath`` are `String`s. This is the lossless bridge.
///
/// ```swift
/// let shown = FileName.display([0x63, 0x61, 0x66, 0xE9])   // "caf\u{EFE9}": valid Unicode
/// assert(FileName.bytes(shown) == [0x63, 0x61, 0x66, 0xE9]) // the name, exactly
/// Terminal.error("file-squeezer: \(shown): failed\n")       // the terminal gets the raw byte 0xE9
/// ```
///
/// A byte that is not part of valid UTF-8 becomes the private-use character
/// U+EF00 + byte (U+EF80 … U+EFFF, MirBSD's OPTU-8 convention). So that
/// the mapping stays reversible, a name that really contains a character in
/// U+EF80 … U+EFFF has each of that character's three bytes mapped the same
/// way. Every other name is its own UTF-8 unchanged. ``Terminal`` turns the
/// escapes back into the raw bytes (as gzip prints names); `--json` keeps
/// them, so the report stays valid UTF-8 (see the README's `--json` section).
enum FileName {
    /// The first and last scalar used for escaped bytes.
    static let escapes: ClosedRange<UInt32> = 0xEF80...0xEFFF

    /// `bytes` as a `String`, invalid bytes escaped (see ``FileName``).
    ///
    /// ```swift
    /// FileName.display(Array("a.txt".utf8)) == "a.txt"
    /// ```
    static func display<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        let bytes = Array(bytes)
        // Most names are ASCII, which needs no escape: one copy, no
        // scalar-by-scalar append, which costs a run of many tiny files.
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let length = validSequenceLength(bytes, at: index)
            if length == 0 {
                scalars.append(Unicode.Scalar(0xEF00 + UInt32(bytes[index]))!)
                index += 1
                continue
            }
            var decoded = String(decoding: bytes[index..<index + length], as: UTF8.self).unicodeScalars
            if length == 3, let scalar = decoded.first, escapes.contains(scalar.value) {
                decoded = String.UnicodeScalarView(bytes[index..<index + 3].map { Unicode.Scalar(0xEF00 + UInt32($0))! })
            }
            scalars.append(contentsOf: decoded)
            index += length
        }
        return String(scalars)
    }

    /// The bytes `display` stands for: the inverse of ``display(_:)``.
    ///
    /// ```swift
    /// FileName.bytes("caf\u{EFE9}") == [0x63, 0x61, 0x66, 0xE9]
    /// ```
    static func bytes(_ display: String) -> [UInt8] {
        if display.utf8.allSatisfy({ $0 < 0x80 }) { return Array(display.utf8) }
        var result: [UInt8] = []
        result.reserveCapacity(display.utf8.count)
        for scalar in display.unicodeScalars {
            if escapes.contains(scalar.value) {
                result.append(UInt8(scalar.value - 0xEF00))
            } else {
                result.append(contentsOf: String(scalar).utf8)
            }
        }
        return result
    }

    /// Length of the valid UTF-8 sequence at `index` (shortest form, no
    /// surrogates, at most U+10FFFF), or 0 when the byte there starts none.
    private static func validSequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let first = bytes[index]
        if first < 0x80 { return 1 }
        let length: Int
        var lower: UInt8 = 0x80, upper: UInt8 = 0xBF
        switch first {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: return 0
        }
        guard index + length <= bytes.count else { return 0 }
        let second = bytes[index + 1]
        guard second >= lower, second <= upper else { return 0 }
        for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 { return 0 }
        return length
    }
}
