/// The box of `withSafeThrowingContinuation(onCancel:)`: it keeps the hook
/// that stops the callback API, so that whichever way the wait ends early —
/// the task is cancelled, or the timeout passes — the one that wins the
/// box's state compare-and-exchange resumes the waiter and then runs the
/// hook. Exactly once, because only one event can finish a box; never after a
/// resume, because a resumed box cannot be finished again.
///
/// (The cancellation path runs the frame's own copy of the hook, see
/// `withSafeThrowingContinuation`; the timeout path, which has only the box,
/// runs this one.)
@usableFromInline
final class StoppableContinuationBox<Success>: ContinuationBox<Success, any Error>, @unchecked Sendable {
    // @unchecked: `onCancel` is immutable and Sendable.
    @usableFromInline let onCancel: @Sendable () -> Void

    @inlinable
    init(unarmedAt site: CallSite, timeout: Duration?, onCancel: @escaping @Sendable () -> Void) {
        self.onCancel = onCancel
        super.init(nil, site: site, timeout: timeout)
    }

    override var stopWork: (@Sendable () -> Void)? { onCancel }
}
