/// Suspends the current task and calls `body` with a ``SafeContinuation`` that
/// must be resumed with a value; if it is dropped unresumed, the task resumes
/// with `fallback` instead of hanging.
///
/// ```swift
/// func nextFrame() async -> Frame? {
///     await withSafeContinuation(ifLeaked: nil) { continuation in
///         displayLink.onNextFrame { frame in continuation.resume(returning: frame) }
///     }
/// }
/// ```
///
/// - Parameters:
///   - isolation: The actor the caller is isolated to; `body` runs there, synchronously.
///   - fallback: What the task receives if every copy of the continuation is
///     dropped without a resume (a ``ContinuationMisuse/Kind/leaked`` report is made too).
///   - function: The calling function, captured for misuse reports; leave the default.
///   - fileID: The calling file, captured for misuse reports; leave the default.
///   - line: The calling line, captured for misuse reports; leave the default.
///   - body: Hands the continuation to a callback API. It runs before the task suspends.
/// - Returns: The value passed to the winning `resume`, or `fallback` after a leak.
@inlinable
public func withSafeContinuation<T>(
    isolation: isolated (any Actor)? = #isolation,
    ifLeaked fallback: sending T,
    function: String = #function, fileID: String = #fileID, line: Int = #line,
    _ body: (SafeContinuation<T, Never>) -> Void
) async -> sending T {
    // `fallback` is `sending`: disconnected from the caller, so moving it into
    // the box (which may resume the waiter with it from another thread) is safe.
    let fallback = UncheckedSendable(fallback)
    return await withUnsafeContinuation(isolation: isolation) { (raw: UnsafeContinuation<T, Never>) in
        let site = CallSite(function: function, fileID: fileID, line: line)
        body(SafeContinuation(FallbackContinuationBox(raw, ifLeaked: fallback.value, site: site)))
    }
}

/// Carries a value the compiler cannot prove safe to send, where the caller
/// has proven it (a `sending` parameter moved exactly once).
@usableFromInline
struct UncheckedSendable<Value>: @unchecked Sendable {
    @usableFromInline let value: Value
    @inlinable init(_ value: consuming sending Value) { self.value = value }
}
