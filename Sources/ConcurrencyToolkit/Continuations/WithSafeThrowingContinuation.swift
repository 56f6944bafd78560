/// Suspends the current task and calls `body` with a throwing ``SafeContinuation``.
/// The waiter never hangs on a dropped continuation, and can be given a
/// timeout and a hook that stops the callback API when the wait ends early.
///
/// ```swift
/// func download(_ url: URL) async throws -> Data {
///     let request = LegacyDownloader.Request(url)
///     return try await withSafeThrowingContinuation(timeout: .seconds(30), onCancel: { request.cancel() }) {
///         continuation in
///         request.start { data, error in
///             if let error { continuation.resume(throwing: error) }
///             else { continuation.resume(returning: data ?? Data()) }
///         }
///     }
/// }
/// ```
///
/// - Leak: when every copy of the continuation is dropped without a resume,
///   the waiter throws ``SafeContinuationError/leaked`` (naming this call) and a
///   ``ContinuationMisuse/Kind/leaked`` report goes to the handler in effect here.
///   Code that used to hang here now throws: a `catch` that assumes only the
///   callback API's own errors (`error as! APIError`) must let this one through.
/// - Timeout: `timeout` after the call, a waiter not yet resumed throws
///   ``SafeContinuationError/timedOut`` (naming this call and the timeout;
///   typically within a millisecond of the deadline, plus scheduling delay),
///   and `onCancel` runs. The timeout costs no thread and no task: all
///   timeouts share one timer.
/// - Cancellation with `onCancel`: when the task is cancelled, the waiter
///   throws `CancellationError` at once and `onCancel` runs, on the
///   cancelling thread. If the task is already cancelled when this is called,
///   `body` does not run; the waiter throws `CancellationError` and `onCancel`
///   still runs.
/// - `onCancel` runs **exactly once when the wait ends early, whichever way**
///   (cancellation or timeout: the first to happen wins), after the waiter was
///   resumed; **never after a resume** by the callback API, and never for a leak.
/// - Cancellation without `onCancel`: nothing happens, as with the standard
///   library's continuations; the waiter keeps waiting for a resume, a leak,
///   or the timeout.
/// - A resume that arrives after a timeout or cancellation is expected: it
///   returns `false` and is dropped without a report (it is counted in
///   ``PendingContinuations/Snapshot/lateResumes``).
///
/// - Parameters:
///   - isolation: The actor the caller is isolated to; `body` runs there, synchronously.
///   - timeout: How long to wait for a resume; `nil` waits without limit.
///   - onCancel: Stops the callback API when the wait ends early: the task was
///     cancelled or the timeout passed. Runs once, on the thread that cancels
///     the task or on the timer's thread, possibly while `body` is still
///     running; keep it short, thread-safe, and non-blocking.
///   - function: The calling function, captured for misuse reports and errors;
///     leave the default, or pass your caller's on from a wrapper.
///   - fileID: The calling file, captured for misuse reports and errors (see `function`).
///   - line: The calling line, captured for misuse reports and errors (see `function`).
///   - body: Hands the continuation to a callback API. It runs before the task suspends.
/// - Returns: The value passed to the winning `resume`.
/// - Throws: The error passed to the winning `resume`, ``SafeContinuationError/leaked``,
///   ``SafeContinuationError/timedOut``, or `CancellationError`.
@inlinable @inline(__always)
public func withSafeThrowingContinuation<T>(
    isolation: isolated (any Actor)? = #isolation,
    timeout: Duration? = nil,
    onCancel: (@Sendable () -> Void)? = nil,
    function: String = #function, fileID: String = #fileID, line: Int = #line,
    _ body: (SafeContinuation<T, any Error>) -> Void
) async throws -> sending T {
    guard timeout != nil || onCancel != nil else {
        // The plain path: one allocation, the box.
        return try await withUnsafeThrowingContinuation(isolation: isolation) { (raw: UnsafeContinuation<T, any Error>) in
            let site = CallSite(function: function, fileID: fileID, line: line)
            body(SafeContinuation(ContinuationStorage(raw, site: site)))
        }
    }
    let site = CallSite(function: function, fileID: fileID, line: line)
    guard let onCancel else {
        return try await withUnsafeThrowingContinuation(isolation: isolation) { (raw: UnsafeContinuation<T, any Error>) in
            body(SafeContinuation(makeTimedBox(raw, site: site, timeout: timeout)))
        }
    }
    // The box is made before the handler is installed (an already cancelled
    // task runs the handler at once, before the continuation exists), and
    // starts unarmed. The handler reaches it through `token`, unretained, so
    // the box's memory must stay until the handler can no longer run:
    // - while `body` runs, and after it when the continuation was already
    //   resumed there, this frame's own reference keeps it (a resumed
    //   continuation cannot leak, so holding it hides nothing);
    // - if it is still waiting after `body`, this frame must not own it, or a
    //   leak would go unseen: it pins the memory (not the box) instead, and
    //   lets go. The continuation's copies own it from then on.
    // One allocation in all.
    // (No local variable may hold the box: it would hide a leak.)
    let token = Unmanaged<ContinuationStorage<T, any Error>>.passRetained(
        StoppableContinuationStorage(unarmedAt: site, timeout: timeout, onCancel: onCancel))
    // Ownership rule: whatever the handler can read through `token` is
    // owned by this frame until the handler is removed, never by the box
    // alone. The box's memory: the reference above, then the pin. Its extras
    // (a trace recording's token, when one is active): this reference, taken
    // by hand so the plain path pays a nil test, not a call. A cancellation
    // can win the box while its last copy is dropped on another thread, and
    // then `deinit` releases the box's own reference to the extras while the
    // handler is still ending the box's trace span with them.
    let extras = token._withUnsafeGuaranteedRef { $0.extrasStorage }
    if let extras { _ = extras.retain() }
    var pin: UnownedPin?
    defer {
        // Borrowed, not copied: copying an unowned reference costs an atomic.
        if case .none = pin { token.release() }
        withExtendedLifetime(pin) {}
        if let extras { extras.release() }
    }
    let value = try await withTaskCancellationHandler {
        UncheckedSendable(
            try await withUnsafeThrowingContinuation(isolation: isolation) { (raw: UnsafeContinuation<T, any Error>) in
                let waiting = token._withUnsafeGuaranteedRef { box in
                    // Cancelled while we got here: the box is finished, the body skipped.
                    guard box.arm(raw) else { return false }
                    if let timeout { TimeoutScheduler.shared.schedule(box, after: timeout) }
                    body(SafeContinuation(box))
                    return box.isWaiting
                }
                if waiting {
                    pin = UnownedPin(token.takeUnretainedValue())
                    // If `body` kept no copy, this was the last reference:
                    // `deinit` reports the leak and resumes the waiter now.
                    token.release()
                }
            })
    } onCancel: {
        if token._withUnsafeGuaranteedRef({ $0.cancelFromHandler() }) { onCancel() }
    }
    return value.value
}

/// A box with its timeout, if any, scheduled.
@inlinable
func makeTimedBox<T>(
    _ raw: UnsafeContinuation<T, any Error>, site: CallSite, timeout: Duration?
) -> ContinuationStorage<T, any Error> {
    let box = ContinuationStorage(raw, site: site, timeout: timeout)
    if let timeout { TimeoutScheduler.shared.schedule(box, after: timeout) }
    return box
}
