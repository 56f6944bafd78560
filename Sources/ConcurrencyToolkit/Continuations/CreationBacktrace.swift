#if canImport(Runtime)
import Runtime
#endif

/// The return addresses of the code that created a continuation, captured
/// when ``ContinuationMisuse/capturesCreationBacktraces`` is on, and turned
/// into `function at file:line` only when a report is made.
///
/// Capturing reads the current thread's frame pointers, async frames
/// included (the toolchain's `Runtime` module, SE-0419), with the image list
/// taken once and reused: a stack walk per continuation, against the default
/// path's nothing (the cost is in Documentation/Performance.md,
/// "Continuations"). Symbols are looked up only for a report.
@usableFromInline
final class CreationBacktrace: Sendable {
    #if canImport(Runtime)
    private let captured: any Sendable  // a Backtrace; `any` keeps the stored type free of availability
    #endif

    #if canImport(Runtime)
    private init(_ captured: any Sendable) { self.captured = captured }
    #endif

    /// The creating code's backtrace, or nil where the platform has no `Runtime` module.
    @usableFromInline @inline(never)
    static func capture() -> CreationBacktrace? {
        #if canImport(Runtime)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            // offset 1: not this function; the box's initializer is inlined
            // into the `withSafe…Continuation` closure, which is kept and
            // then filtered out with the rest of the toolkit's frames.
            guard let backtrace = try? Backtrace.capture(
                algorithm: .fast, limit: 24, offset: 1, top: 0, images: BacktraceSymbolication.images)
            else { return nil }
            return CreationBacktrace(backtrace)
        }
        #endif
        return nil
    }

    /// The frames outside the toolkit and the Swift runtime, innermost first,
    /// as `function at file:line`.
    func symbolicatedFrames() -> [String] {
        #if canImport(Runtime)
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *),
            let backtrace = captured as? Backtrace
        {
            return BacktraceSymbolication.userFrames(of: backtrace, skippingModule: "ConcurrencyToolkit")
        }
        #endif
        return []
    }
}
