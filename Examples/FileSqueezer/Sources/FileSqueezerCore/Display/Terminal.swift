#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Unbuffered writes to the standard streams (C's `stdout` is a global
/// variable Swift 6 will not let concurrent code touch).
enum Terminal {
    static func out(_ text: String) { write(1, text) }
    static func error(_ text: String) { write(2, text) }

    static var isInteractive: Bool { isatty(1) == 1 }

    private static func write(_ descriptor: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var done = 0
            while done < bytes.count {
                let count = Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
                if count < 0 { if errno == EINTR { continue }; return }
                done += count
            }
        }
    }
}

/// "1.5 MB" style sizes (decimal units, like `ls -h --si`).
func formatBytes(_ bytes: Int64) -> String {
    let units = ["B", "kB", "MB", "GB", "TB"]
    var value = Double(bytes)
    var unit = 0
    while value >= 1000, unit < units.count - 1 { value /= 1000; unit += 1 }
    return unit == 0 ? "\(bytes) B" : "\(formatDecimal(value, 1)) \(units[unit])"
}

/// Fixed decimals without Foundation's locale-dependent formatting.
func formatDecimal(_ value: Double, _ decimals: Int) -> String {
    guard value.isFinite else { return "-" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int64((abs(value) * scale).rounded())
    let whole = scaled / Int64(scale), fraction = scaled % Int64(scale)
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard decimals > 0 else { return "\(sign)\(whole)" }
    let digits = String(fraction)
    return "\(sign)\(whole).\(String(repeating: "0", count: decimals - digits.count))\(digits)"
}
