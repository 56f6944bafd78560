/// The box of the non-throwing form: a leak resumes the waiter with the
/// caller's fallback value instead of throwing.
@usableFromInline
final class FallbackContinuationBox<Success>: ContinuationBox<Success, Never>, @unchecked Sendable {
    // @unchecked: `fallback` is read only by the winner of the leak
    // transition, in `deinit`, when nobody else can touch the box.
    @usableFromInline let fallback: Success
    /// How the leak report describes the fallback (a value, `()`, `nil`).
    @usableFromInline let outcome: LeakOutcome

    @inlinable
    init(
        _ raw: UnsafeContinuation<Success, Never>, ifLeaked fallback: consuming Success, site: CallSite,
        outcome: LeakOutcome = .returnedFallback
    ) {
        self.fallback = fallback
        self.outcome = outcome
        super.init(raw, site: site)
    }

    deinit {
        // Runs before the base class's deinit, while `fallback` still exists;
        // the base then sees the continuation finished and does nothing.
        guard transition(.lastCopyDropped) == .finish(.leaked) else { return }
        reportLeak(outcome)
        raw.resume(returning: fallback)
    }
}

/// The box of the non-throwing form without a fallback value (a generic
/// result, as in a plain rename of `withCheckedContinuation`): a leak is
/// reported the moment the last copy is dropped, with the creation site, but
/// the waiter cannot be resumed without a value and stays suspended, as with
/// `CheckedContinuation`.
@usableFromInline
final class NoFallbackContinuationBox<Success>: ContinuationBox<Success, Never>, @unchecked Sendable {
    @inlinable
    init(_ raw: UnsafeContinuation<Success, Never>, site: CallSite) {
        super.init(raw, site: site)
    }

    deinit {
        // Before the base class's deinit, which then sees the box finished.
        guard transition(.lastCopyDropped) == .finish(.leaked) else { return }
        reportLeak(.stillSuspended)
    }
}
