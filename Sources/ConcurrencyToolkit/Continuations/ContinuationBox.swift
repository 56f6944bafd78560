import Synchronization

/// The one heap object behind a `SafeContinuation`: the raw continuation, its
/// state in one atomic byte, and what to report where.
///
/// Only copies of `SafeContinuation` hold a box strongly, so its `deinit`
/// runs exactly when the last copy is dropped; if the continuation is still
/// pending then, it leaked, and `deinit` reports it and resumes the waiter.
@usableFromInline
final class ContinuationBox<Success, Failure: Error>: @unchecked Sendable {
    // @unchecked: `raw` is resumed by exactly one winner of `state`'s CAS;
    // `fallback` is read only by that winner (in `deinit`, when nobody else
    // can touch the box) and never mutated after init.
    private let state = Atomic<UInt8>(ContinuationState.pending.rawValue)
    private let raw: UnsafeContinuation<Success, Failure>
    private let fallback: Success?
    let site: ContinuationSite
    /// The scoped handler in effect at creation (nil: the process-wide one).
    private let scope: ContinuationMisuseHandler?

    init(
        _ raw: UnsafeContinuation<Success, Failure>, ifLeaked fallback: consuming Success?,
        site: ContinuationSite
    ) {
        self.raw = raw
        self.fallback = fallback
        self.site = site
        self.scope = ContinuationMisuseHandler.scopedHandlerIfAny()
    }

    deinit {
        guard transition(.lastCopyDropped) == .finish(.leaked) else { return }
        ContinuationMisuseHandler.deliver(
            ContinuationMisuse(kind: .leaked, creationSite: site), to: scope)
        if let fallback {
            raw.resume(returning: fallback)
        } else {
            // Only the throwing form (Failure == any Error) has no fallback.
            raw.resume(throwing: SafeContinuationError.leaked as! Failure)
        }
    }

    /// Moves the state for `event` with one CAS and says what the caller must do.
    @inline(__always)
    func transition(_ event: ContinuationState.Event) -> ContinuationState.Outcome {
        var current = ContinuationState(rawValue: state.load(ordering: .relaxed))!
        while true {
            let outcome = current.on(event)
            guard case .finish(let next) = outcome else { return outcome }
            let (exchanged, original) = state.compareExchange(
                expected: current.rawValue, desired: next.rawValue, ordering: .acquiringAndReleasing)
            if exchanged { return outcome }
            current = ContinuationState(rawValue: original)!
        }
    }

    /// The current state (for diagnostics and tests; it may change right after).
    var currentState: ContinuationState {
        ContinuationState(rawValue: state.load(ordering: .acquiring))!
    }

    /// Resumes the waiter with `result` if this call wins; otherwise reports or drops.
    @inline(__always)
    func resume(with result: sending Result<Success, Failure>, at resumeSite: @autoclosure () -> ContinuationSite)
        -> Bool
    {
        switch transition(.resume) {
        case .finish:
            raw.resume(with: result)
            return true
        case .reportExtraResume:
            ContinuationMisuseHandler.deliver(
                ContinuationMisuse(kind: .resumedMoreThanOnce, creationSite: site, resumeSite: resumeSite()),
                to: scope)
            return false
        case .dropLate, .ignore:
            return false
        }
    }

    /// Finishes a pending continuation on behalf of the toolkit (timeout,
    /// cancellation). Returns whether it won; a later user resume is dropped.
    func finish(_ event: ContinuationState.Event, throwing error: Failure) -> Bool {
        guard case .finish = transition(event) else { return false }
        raw.resume(throwing: error)
        return true
    }
}
