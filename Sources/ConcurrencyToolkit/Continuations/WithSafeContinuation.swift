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
        body(SafeContinuation(FallbackContinuationStorage(raw, ifLeaked: fallback.value, site: site)))
    }
}

/// Suspends the current task and calls `body` with a ``SafeContinuation``
/// that must be resumed with a value: the one-word replacement for
/// `withCheckedContinuation`, for a result that has no obvious fallback.
///
/// ```swift
/// func nextMessage() async -> Message {
///     await withSafeContinuation { continuation in
///         inbox.onNextMessage { message in continuation.resume(returning: message) }
///     }
/// }
/// ```
///
/// A second resume is ignored and reported, as with every form. **A leak
/// cannot be recovered here**: without a value to return, the waiter stays
/// suspended forever, as it would with `CheckedContinuation`. What you gain is
/// the report: a ``ContinuationMisuse/Kind/leaked`` report naming this call
/// is made the moment the last copy is dropped, where `CheckedContinuation`
/// only logs an anonymous line. Pass `ifLeaked:` (see
/// ``withSafeContinuation(isolation:ifLeaked:function:fileID:line:_:)``) or use
/// ``withSafeThrowingContinuation(isolation:timeout:onCancel:function:fileID:line:_:)``
/// to have the waiter resumed instead. For `Void` and `Optional` results the
/// fallback is obvious and is used without asking: `()` and `nil`.
///
/// - Parameters:
///   - isolation: The actor the caller is isolated to; `body` runs there, synchronously.
///   - function: The calling function, captured for misuse reports; leave the
///     default, or pass your own caller's on from a wrapper.
///   - fileID: The calling file, captured for misuse reports (see `function`).
///   - line: The calling line, captured for misuse reports (see `function`).
///   - body: Hands the continuation to a callback API. It runs before the task suspends.
/// - Returns: The value passed to the winning `resume`.
@inlinable
public func withSafeContinuation<T>(
    isolation: isolated (any Actor)? = #isolation,
    function: String = #function, fileID: String = #fileID, line: Int = #line,
    _ body: (SafeContinuation<T, Never>) -> Void
) async -> sending T {
    await withUnsafeContinuation(isolation: isolation) { (raw: UnsafeContinuation<T, Never>) in
        let site = CallSite(function: function, fileID: fileID, line: line)
        body(SafeContinuation(NoFallbackContinuationStorage(raw, site: site)))
    }
}

/// Suspends the current task until `body`'s callback resumes the
/// ``SafeContinuation``: the one-word replacement for a `Void`
/// `withCheckedContinuation`. If every copy is dropped without a resume, the
/// leak is reported and the waiter is resumed all the same: a `Void` result
/// needs no fallback value.
///
/// ```swift
/// func waitForFlush() async {
///     await withSafeContinuation { continuation in
///         logger.flush { continuation.resume() }
///     }
/// }
/// ```
///
/// - Parameters:
///   - isolation: The actor the caller is isolated to; `body` runs there, synchronously.
///   - function: The calling function, captured for misuse reports (a wrapper passes its caller's on).
///   - fileID: The calling file, captured for misuse reports.
///   - line: The calling line, captured for misuse reports.
///   - body: Hands the continuation to a callback API. It runs before the task suspends.
@inlinable
public func withSafeContinuation(
    isolation: isolated (any Actor)? = #isolation,
    function: String = #function, fileID: String = #fileID, line: Int = #line,
    _ body: (SafeContinuation<Void, Never>) -> Void
) async {
    await withUnsafeContinuation(isolation: isolation) { (raw: UnsafeContinuation<Void, Never>) in
        let site = CallSite(function: function, fileID: fileID, line: line)
        body(SafeContinuation(FallbackContinuationStorage(raw, ifLeaked: (), site: site, outcome: .returnedVoid)))
    }
}

/// Suspends the current task and calls `body` with a ``SafeContinuation``
/// for an optional result: the one-word replacement for
/// `withCheckedContinuation` returning `T?`. If every copy is dropped without
/// a resume, the leak is reported and the waiter gets `nil`.
///
/// ```swift
/// func nextFrame() async -> Frame? {
///     await withSafeContinuation { continuation in
///         displayLink.onNextFrame { frame in continuation.resume(returning: frame) }
///     }
/// }
/// ```
///
/// - Parameters:
///   - isolation: The actor the caller is isolated to; `body` runs there, synchronously.
///   - function: The calling function, captured for misuse reports (a wrapper passes its caller's on).
///   - fileID: The calling file, captured for misuse reports.
///   - line: The calling line, captured for misuse reports.
///   - body: Hands the continuation to a callback API. It runs before the task suspends.
/// - Returns: The value passed to the winning `resume`, or `nil` after a leak.
@inlinable
public func withSafeContinuation<Wrapped>(
    isolation: isolated (any Actor)? = #isolation,
    function: String = #function, fileID: String = #fileID, line: Int = #line,
    _ body: (SafeContinuation<Wrapped?, Never>) -> Void
) async -> sending Wrapped? {
    await withUnsafeContinuation(isolation: isolation) { (raw: UnsafeContinuation<Wrapped?, Never>) in
        let site = CallSite(function: function, fileID: fileID, line: line)
        body(SafeContinuation(FallbackContinuationStorage(raw, ifLeaked: nil, site: site, outcome: .returnedNil)))
    }
}

/// Carries a value the compiler cannot prove safe to send, where the caller
/// has proven it (a `sending` parameter moved exactly once).
@usableFromInline
struct UncheckedSendable<Value>: @unchecked Sendable {
    @usableFromInline let value: Value
    @inlinable init(_ value: consuming sending Value) { self.value = value }
}
