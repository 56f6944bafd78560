#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Unbuffered writes to the standard streams (C's `stdout` is a global
/// variable Swift 6 will not let concurrent code touch), and what the
/// terminal can do.
///
/// ```swift
/// Terminal.out("Squeezed 2 files\n")
/// if let failure = Terminal.outputFailure { Terminal.error("file-squeezer: stdout: \(failure)\n") }
/// ```
///
/// A write that fails is not retried: the first failure of standard output
/// is kept (``outputFailure``) and later writes to it are skipped, so the
/// caller can say so and exit 1, as gzip does. A write to a closed pipe
/// (`EPIPE`, `file-squeezer DIR | head -1`) is a SIGPIPE: it stops the run
/// like one (``StopSignals``), whichever thread wrote.
enum Terminal {
    /// Writes `text`, with the file names in it as their raw bytes
    /// (``FileName``'s escapes undone), as gzip prints them.
    static func out(_ text: String) { write(1, text, rawNames: true) }
    static func error(_ text: String) { write(2, text, rawNames: true) }
    /// Writes `text` as the UTF-8 it is (`--json`: escapes kept, valid UTF-8).
    static func outUTF8(_ text: String) { write(1, text, rawNames: false) }

    /// Whether standard output is a terminal.
    static var isInteractive: Bool { isatty(1) == 1 }

    /// Whether the terminal moves the cursor (`ESC [ n F`, `ESC [ J`): not
    /// when `TERM` is unset, empty, `dumb` or `unknown`, as in Emacs' shell
    /// or a CI log that records a pseudo-terminal.
    static var movesCursor: Bool {
        guard let term = getenv("TERM").map({ String(cString: $0) }) else { return false }
        return !["", "dumb", "unknown"].contains(term)
    }

    /// The terminal's size, `nil` when standard output is not a terminal
    /// or the size is unknown (reported as 0).
    static var size: (columns: Int, rows: Int)? {
        var window = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 else { return nil }
        return (Int(window.ws_col), Int(window.ws_row))
    }

    /// The first failure of a write to standard output (`strerror`'s text),
    /// other than a closed pipe.
    static var outputFailure: String? { failures.withLock { $0.output } }

    private static let failures = VisibleMutex<(output: String?, outputClosed: Bool)>((nil, false))

    private static func write(_ descriptor: Int32, _ text: String, rawNames: Bool) {
        if descriptor == 1, failures.withLock({ $0.output != nil || $0.outputClosed }) { return }
        let code: Int32
        if rawNames, text.unicodeScalars.contains(where: { FileName.escapes.contains($0.value) }) {
            code = FileName.bytes(text).withUnsafeBytes { System.writeAll(descriptor, $0) }
        } else {
            var text = text
            code = text.withUTF8 { System.writeAll(descriptor, UnsafeRawBufferPointer($0)) }
        }
        guard code != 0 else { return }
        if code == EPIPE {
            if descriptor == 1 { failures.withLock { $0.outputClosed = true } }
            StopSignals.shared.deliver(SIGPIPE, fromOutside: false)
        } else if descriptor == 1 {
            failures.withLock { if $0.output == nil { $0.output = String(cString: strerror(code)) } }
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
