import Synchronization

/// The one heap object behind a `SafeContinuation`: the raw continuation, its
/// state in one atomic byte, and what to report where.
///
/// Only copies of `SafeContinuation` hold a box strongly, so its `deinit`
/// runs exactly when the last copy is dropped; if the continuation is still
/// pending then, it leaked, and `deinit` reports it and resumes the waiter.
/// The timeout scheduler and the cancellation handler reach the box through
/// weak references: they can finish it, but never keep it alive, so a leak is
/// still detected while a timeout or a cancellation handler is armed. (A weak
/// reference that they load for a moment is always used to finish the box, so
/// dropping it can never be the drop of a pending box.)
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
    /// Who else must hear when this box finishes. Empty on the plain path, so
    /// finishing costs one branch there.
    private let links: ContinuationLinks

    init(
        _ raw: UnsafeContinuation<Success, Failure>, ifLeaked fallback: consuming Success?,
        site: ContinuationSite, timeout: Duration? = nil
    ) {
        self.raw = raw
        self.fallback = fallback
        self.site = site
        self.scope = ContinuationMisuseHandler.scopedHandlerIfAny()
        var links: ContinuationLinks = timeout == nil ? [] : .timed
        if PendingContinuations.isTrackingEnabled { links.insert(.registered) }
        self.links = links
        if links.contains(.registered) {
            PendingContinuations.register(ObjectIdentifier(self), site: site, timeout: timeout)
        }
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
            guard case .finish(let next) = outcome else {
                if outcome == .dropLate { ContinuationCounters.shared.lateResumes.add(1, ordering: .relaxed) }
                return outcome
            }
            let (exchanged, original) = state.compareExchange(
                expected: current.rawValue, desired: next.rawValue, ordering: .acquiringAndReleasing)
            if exchanged {
                if !links.isEmpty || next != .resumed { finished(as: next) }
                return outcome
            }
            current = ContinuationState(rawValue: original)!
        }
    }

    /// Bookkeeping for the rare paths: registry, scheduler, counters.
    @inline(never)
    private func finished(as next: ContinuationState) {
        if links.contains(.registered) { PendingContinuations.unregister(ObjectIdentifier(self)) }
        if links.contains(.timed) { TimeoutScheduler.shared.noteFinished() }
        ContinuationCounters.shared.count(next)
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

extension ContinuationBox: InterruptibleContinuation {
    var isFinished: Bool { currentState != .pending }

    func timeOut() {
        // Timeouts exist only on the throwing form, where Failure == any Error.
        _ = finish(.timeout, throwing: SafeContinuationError.timedOut as! Failure)
    }

    func cancel() -> Bool {
        finish(.cancel, throwing: CancellationError() as! Failure)
    }
}

/// What the timeout scheduler and a cancellation handler may do to a box they
/// reach through a weak reference.
protocol InterruptibleContinuation: AnyObject, Sendable {
    /// Whether the continuation no longer waits (resumed, timed out, cancelled, leaked).
    var isFinished: Bool { get }
    /// Resumes the waiter with `SafeContinuationError.timedOut` if still pending.
    func timeOut()
    /// Resumes the waiter with `CancellationError` if still pending; returns whether it did.
    func cancel() -> Bool
}

/// Who else must hear when a box finishes, besides its waiter.
struct ContinuationLinks: OptionSet, Sendable {
    let rawValue: UInt8
    /// Listed in ``PendingContinuations`` until it finishes.
    static let registered = ContinuationLinks(rawValue: 1)
    /// Has an entry in the shared timeout scheduler.
    static let timed = ContinuationLinks(rawValue: 2)
}
