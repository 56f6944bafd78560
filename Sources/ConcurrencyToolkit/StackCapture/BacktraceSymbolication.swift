#if canImport(Runtime)
import Runtime

/// Turns a captured backtrace into the lines a report shows: one per frame
/// with a symbol, `function at file:line`, leaving out the toolkit's own
/// frames and the Swift runtime's, so the first line is the user's code.
///
/// (Shared by the reports that carry a backtrace: continuation creation
/// backtraces, and the stall detector's captures of other threads' stacks,
/// Stalls/StallSymbolication.swift.)
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
enum BacktraceSymbolication {
    /// The loaded images, listed once (listing them is not cheap); a
    /// capture given this list does not list them again. Symbolication lists
    /// them afresh, so a library loaded later is still found.
    static let images = ImageMap.capture()

    static func userFrames(of backtrace: Backtrace, skippingModule module: String, limit: Int = 8) -> [String] {
        guard let symbolicated = backtrace.symbolicated(with: ImageMap.capture()) else { return [] }
        return userFrames(of: symbolicated, skippingModule: module, limit: limit)
    }

    /// The lines of `symbolicated`'s frames outside `module` and the Swift runtime.
    static func userFrames(of symbolicated: SymbolicatedBacktrace, skippingModule module: String, limit: Int) -> [String] {
        let ownPrefix = "$s\(module.utf8.count)\(module)"
        var lines: [String] = []
        for frame in symbolicated.frames where lines.count < limit {
            guard let symbol = frame.symbol, !frame.isSwiftThunk, !frame.isSystem else { continue }
            if symbol.rawName.hasPrefix(ownPrefix) { continue }
            if symbol.imageName.hasPrefix("libswift") || isSystemLibrary(symbol.imageName) { continue }
            if symbol.name == "<unknown>" { continue }  // a stripped library's frame: nothing to act on
            var line = symbol.name
            if let location = symbol.sourceLocation {
                line += " at \(relative(location.path)):\(location.line)"
            }
            lines.append(line)
        }
        return lines
    }

    /// The C library's and Dispatch's images: a call into the C library is
    /// named by a stall report's first line (`blocked in poll`), and
    /// Dispatch's frames only say which queue drained the job.
    static func isSystemLibrary(_ imageName: String) -> Bool {
        imageName.hasPrefix("libc.") || imageName.hasPrefix("libpthread") || imageName.hasPrefix("ld-linux")
            || imageName.hasPrefix("libdispatch")
    }

    /// `Sources/App/main.swift` from an absolute path, from its last
    /// `Sources`, `Tests` or `Examples` folder on.
    private static func relative(_ path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let start = parts.lastIndex(where: { ["Sources", "Tests", "Examples"].contains($0) }) else { return path }
        return parts[start...].joined(separator: "/")
    }
}
#endif
