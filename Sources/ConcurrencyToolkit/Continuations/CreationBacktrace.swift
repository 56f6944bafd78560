/// The return addresses of the code that created a continuation, captured
/// when ``ContinuationMisuse/capturesCreationBacktraces`` is on, and turned
/// into `function at file:line` only when a report is made.
///
/// Capturing walks the current thread's frame pointers and then the task's
/// async contexts (``CurrentStack``): a few dozen loads per continuation,
/// against the default path's nothing (the cost is in
/// Documentation/Performance.md, "Continuations"). Symbols are looked up
/// only for a report.
@usableFromInline
final class CreationBacktrace: Sendable {
    private let addresses: [UInt]

    private init(_ addresses: [UInt]) { self.addresses = addresses }

    /// The creating code's backtrace, or nil where the stack cannot be walked.
    @usableFromInline @inline(never)
    static func capture() -> CreationBacktrace? {
        let addresses = CurrentStack.capture(limit: 24)
        return addresses.isEmpty ? nil : CreationBacktrace(addresses)
    }

    /// The frames outside the toolkit and the Swift runtime, innermost first,
    /// as `function at file:line`.
    func symbolicatedFrames() -> [String] {
        #if os(Linux)
        return Symbolicator.reportLines(for: addresses, firstIsProgramCounter: false, limit: 8)
        #else
        return []
        #endif
    }
}
