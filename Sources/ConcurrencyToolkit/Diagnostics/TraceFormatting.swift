/// Number and text formatting shared by the exports, without Foundation:
/// the library has no dependencies, and `Double`'s description switches to
/// exponent notation, which SVG and JSON readers do not all accept.
enum TraceFormatting {
    /// A duration for people: "850 ns", "12.5 µs", "1.23 ms", "2.5 s".
    static func duration(_ nanoseconds: UInt64) -> String {
        duration(nanoseconds, inUnitOf: nanoseconds)
    }

    /// `nanoseconds` in the unit `duration` would use for `scale`: ticks
    /// 2 ms apart at 1.524 s read "1524 ms", not "1.52 s" twice.
    static func duration(_ nanoseconds: UInt64, inUnitOf scale: UInt64) -> String {
        let (unit, suffix): (UInt64, String) =
            switch scale {
            case ..<1_000: (1, "ns")
            case ..<1_000_000: (1_000, "µs")
            case ..<1_000_000_000: (1_000_000, "ms")
            default: (1_000_000_000, "s")
            }
        return "\(decimal(Double(nanoseconds) / Double(unit), places: 2)) \(suffix)"
    }

    /// `value` with at most `places` decimals, trailing zeros dropped.
    static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale)
        var fraction = String(scaled % Int64(scale))
        fraction = String(repeating: "0", count: max(0, places - fraction.count)) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return fraction.isEmpty ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }

    /// Nanoseconds as the microseconds Chrome's format wants, exactly: "1234.567".
    static func microseconds(_ nanoseconds: UInt64) -> String {
        let fraction = String(nanoseconds % 1_000)
        return "\(nanoseconds / 1_000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    /// `text` safe inside XML text and attribute values. Characters XML 1.0
    /// forbids (most control characters) become U+FFFD.
    static func xmlEscaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                result += "\u{FFFD}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `text` as a JSON string literal, quotes included.
    static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
