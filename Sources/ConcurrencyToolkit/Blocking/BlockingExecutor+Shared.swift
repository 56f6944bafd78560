#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension BlockingExecutor {
    /// The process-wide executor for blocking calls that need no executor of
    /// their own. Its width is ``defaultSharedWidth`` (64) unless the
    /// environment variable `CONCURRENCY_TOOLKIT_BLOCKING_WIDTH` holds a
    /// positive integer when it is first used.
    ///
    /// For example: `let text = try await BlockingExecutor.shared.run { try String(contentsOfFile: path) }`
    ///
    /// Why 64 and not the core count: blocked threads use no CPU, so the
    /// useful width is how many blocking calls may be waiting at once (files
    /// opening, DNS lookups, sockets), not how many can compute. 64 covers a
    /// burst of small I/O on a laptop; lanes take a thread only while busy.
    /// An invalid variable is reported on standard error and ignored.
    /// It cannot be shut down.
    public static let shared = BlockingExecutor(
        width: sharedWidth(fromEnvironment: getenv(sharedWidthVariable).map { String(cString: $0) }),
        label: "BlockingExecutor.shared")

    /// The width of ``shared`` when `CONCURRENCY_TOOLKIT_BLOCKING_WIDTH` is not set.
    ///
    /// For example: `assert(BlockingExecutor.shared.width == BlockingExecutor.defaultSharedWidth)`
    public static let defaultSharedWidth = 64

    static let sharedWidthVariable = "CONCURRENCY_TOOLKIT_BLOCKING_WIDTH"

    /// Parses the variable's value; anything but a positive integer falls back
    /// to the default with one line on standard error.
    static func sharedWidth(fromEnvironment value: String?) -> Int {
        guard let value else { return defaultSharedWidth }
        if let width = Int(value.trimmingWhitespace), width >= 1 { return width }
        writeToStandardError(
            "ConcurrencyToolkit: \(sharedWidthVariable)=\"\(value)\" is not a positive integer; "
                + "BlockingExecutor.shared uses width \(defaultSharedWidth)\n")
        return defaultSharedWidth
    }
}

extension String {
    fileprivate var trimmingWhitespace: Substring {
        let isSpace: (Character) -> Bool = { $0.isWhitespace }
        let start = firstIndex { !isSpace($0) } ?? endIndex
        let end = lastIndex { !isSpace($0) }.map(index(after:)) ?? start
        return self[start..<end]
    }
}
