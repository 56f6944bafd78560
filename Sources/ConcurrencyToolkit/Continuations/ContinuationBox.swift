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
///
/// The hot path (create, resume, drop) is `@inlinable` so callers get it
/// specialized: unspecialized generic code would look up type metadata on
/// every call and cost several times `CheckedContinuation`'s round trip.
///
/// This class serves the throwing form: a leak throws. The non-throwing form
/// uses ``FallbackContinuationBox``, which adds the fallback value. Keeping the
/// fallback out of this class keeps its `deinit` free of generic metadata
/// lookups, which measured as the largest cost of the round trip.
@usableFromInline
class ContinuationBox<Success, Failure: Error>: InterruptibleBox, @unchecked Sendable {
    // @unchecked: `raw` is resumed by exactly one winner of `state`'s CAS.
    @usableFromInline final let state: Atomic<UInt8>
    @usableFromInline final let raw: UnsafeContinuation<Success, Failure>
    @usableFromInline final let site: ContinuationSite
    /// The scoped handler in effect at creation (nil: the process-wide one).
    @usableFromInline final let scope: ContinuationMisuseHandler?
    /// Who else must hear when this box finishes. Empty on the plain path, so
    /// finishing costs one branch there.
    @usableFromInline final let links: ContinuationLinks
    /// The slot of the task's cancellation handler, if `onCancel` was given.
    @usableFromInline final let cancellationSlot: CancellationSlot?

    @inlinable
    init(
        _ raw: UnsafeContinuation<Success, Failure>, site: ContinuationSite,
        timeout: Duration? = nil, cancellationSlot: CancellationSlot? = nil
    ) {
        self.state = Atomic(ContinuationState.pending.rawValue)
        self.raw = raw
        self.site = site
        self.scope = ContinuationMisuseHandler.scopedHandlerIfAny()
        self.cancellationSlot = cancellationSlot
        var links: ContinuationLinks = timeout == nil ? [] : .timed
        if cancellationSlot != nil { links.insert(.cancellable) }
        if PendingContinuations.isTrackingEnabled() { links.insert(.registered) }
        self.links = links
        super.init()
        if links.contains(.registered) {
            PendingContinuations.register(ObjectIdentifier(self), site: site, timeout: timeout)
        }
    }

    deinit {
        if links.contains(.timed) { TimeoutScheduler.shared.remove(at: { timerIndex }) }
        cancellationSlot?.detach()
        // A FallbackContinuationBox has already finished the leak in its own deinit.
        guard transition(.lastCopyDropped) == .finish(.leaked) else { return }
        reportLeak()
        // Only the throwing form (Failure == any Error) gets here.
        raw.resume(throwing: SafeContinuationError.leaked as! Failure)
    }

    final func reportLeak() {
        ContinuationMisuseHandler.deliver(ContinuationMisuse(kind: .leaked, creationSite: site), to: scope)
    }

    /// Moves the state for `event` with one CAS and says what the caller must do.
    @inlinable @inline(__always)
    final func transition(_ event: ContinuationState.Event) -> ContinuationState.Outcome {
        var current = ContinuationState(rawValue: state.load(ordering: .relaxed))!
        while true {
            let outcome = current.on(event)
            guard case .finish(let next) = outcome else {
                if outcome == .dropLate { ContinuationCounters.countLateResume() }
                return outcome
            }
            let (exchanged, original) = state.compareExchange(
                expected: current.rawValue, desired: next.rawValue, ordering: .acquiringAndReleasing)
            if exchanged {
                if links.contains(.registered) || next != .resumed { finished(as: next) }
                return outcome
            }
            current = ContinuationState(rawValue: original)!
        }
    }

    /// Bookkeeping for the rare paths: registry, counters.
    @usableFromInline @inline(never)
    final func finished(as next: ContinuationState) {
        if links.contains(.registered) { PendingContinuations.unregister(ObjectIdentifier(self)) }
        ContinuationCounters.shared.count(next)
    }

    /// The current state (for diagnostics and tests; it may change right after).
    final var currentState: ContinuationState {
        ContinuationState(rawValue: state.load(ordering: .acquiring))!
    }

    /// Resumes the waiter with `result` if this call wins; otherwise reports or drops.
    @inlinable @inline(__always)
    final func resume(with result: sending Result<Success, Failure>, at resumeSite: @autoclosure () -> ContinuationSite)
        -> Bool
    {
        switch transition(.resume) {
        case .finish:
            raw.resume(with: result)
            return true
        case .reportExtraResume:
            reportExtraResume(at: resumeSite())
            return false
        case .dropLate, .ignore:
            return false
        }
    }

    @usableFromInline @inline(never)
    final func reportExtraResume(at resumeSite: ContinuationSite) {
        ContinuationMisuseHandler.deliver(
            ContinuationMisuse(kind: .resumedMoreThanOnce, creationSite: site, resumeSite: resumeSite),
            to: scope)
    }

    override final func interrupt(_ event: ContinuationState.Event) -> (@Sendable () -> Void)? {
        guard case .finish = transition(event) else { return nil }
        // Timeouts and cancellation exist only on the throwing form (Failure == any Error).
        let error = (event == .timeout ? SafeContinuationError.timedOut : CancellationError()) as any Error as! Failure
        let raw = self.raw
        return { raw.resume(throwing: error) }
    }
}

/// Who else must hear when a box finishes, besides its waiter.
/// (Computed constants, not `static let`s: a stored static costs a
/// once-check on every access, which showed up in the round-trip profile.)
@usableFromInline
struct ContinuationLinks: OptionSet, Sendable {
    @usableFromInline let rawValue: UInt8
    @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Listed in ``PendingContinuations`` until it finishes.
    @inlinable static var registered: ContinuationLinks { ContinuationLinks(rawValue: 1) }
    /// Has an entry in the shared timeout scheduler.
    @inlinable static var timed: ContinuationLinks { ContinuationLinks(rawValue: 2) }
    /// Is pointed to by a cancellation slot.
    @inlinable static var cancellable: ContinuationLinks { ContinuationLinks(rawValue: 4) }
}
