import Synchronization

/// The one heap object behind a `SafeContinuation`: the raw continuation, its
/// state in one atomic byte, and what to report where.
///
/// Only copies of `SafeContinuation` hold it strongly, so `deinit` runs when
/// the last copy is dropped, and reports a still-pending continuation as
/// leaked and resumes its waiter. The timeout scheduler and the cancellation
/// handler reach it through unretained pointers, so they never hide a leak.
/// The rule: whatever an unretained path can read is owned by someone who
/// outlives that path (the scheduler's lock for the timer; for the handler,
/// the frame that installed it, which also holds the extras, then an
/// ``UnownedPin``; see `withSafeThrowingContinuation`).
///
/// The hot path (create, resume, drop) is `@inlinable`, so callers get it
/// specialized. This class serves the throwing form; the non-throwing form's
/// fallback value lives in ``FallbackContinuationStorage``, which keeps this
/// `deinit` free of generic metadata lookups, the largest cost of the round trip.
@usableFromInline
class ContinuationStorage<Success, Failure: Error>: InterruptibleStorage, @unchecked Sendable {
    // @unchecked: `raw` is resumed by exactly one winner of `state`'s CAS, and
    // written once, before the CAS that publishes it (at init, or by `arm`).
    @usableFromInline final let state: Atomic<UInt8>
    /// Never nil once the box is pending. Unchecked exclusivity: the state CAS
    /// orders the one write before every read.
    @exclusivity(unchecked) @usableFromInline final var rawStorage: UnsafeContinuation<Success, Failure>?
    @usableFromInline final let site: CallSite
    /// Who else must hear when this box finishes. Empty on the plain path, so
    /// finishing costs one branch there.
    @usableFromInline final let links: ContinuationLinks
    /// The scoped handler, trace and backtrace captured at creation; nil on
    /// the plain path (see ``ContinuationExtras``). Retained by hand and
    /// released in `deinit` only when present: a managed optional costs the
    /// plain box a `swift_release(nil)` call in every `deinit`.
    @usableFromInline final let extrasStorage: Unmanaged<ContinuationExtras>?

    /// A pending box for `raw`; with `raw == nil`, an unarmed one, made before
    /// its continuation so that a cancellation handler can hold it from the
    /// start (``StoppableContinuationStorage``); ``arm(_:)`` hands it the continuation.
    @inlinable
    init(_ raw: UnsafeContinuation<Success, Failure>?, site: CallSite, timeout: Duration? = nil) {
        self.state = Atomic((raw == nil ? ContinuationStateMachine.unarmed : .pending).rawValue)
        self.rawStorage = raw
        self.site = site
        // One call and a branch when nothing unusual is on (see ContinuationExtras).
        let flags = ContinuationOptions.creationFlags()
        if flags == 0 {
            self.links = timeout == nil ? [] : .timed
            self.extrasStorage = nil
        } else {
            let captured = ContinuationExtras.capture(at: site, flags: flags, timeout: timeout)
            self.links = captured.links
            self.extrasStorage = captured.extras.map { Unmanaged.passRetained($0) }
        }
        super.init()
        if links.contains(.registered) {
            PendingContinuations.register(ObjectIdentifier(self), site: site, timeout: timeout)
        }
    }

    /// See `extrasStorage`; valid until `deinit` ends.
    final var extras: ContinuationExtras? { extrasStorage?.takeUnretainedValue() }
    /// The scoped handler in effect at creation (nil: the process-wide one).
    final var scope: ContinuationMisuseHandler? { extras?.scope }
    /// The recording this wait belongs to, if one was active where it was created.
    final var trace: TraceToken? { extras?.trace }
    /// Who created it, when ``ContinuationMisuse/capturesCreationBacktraces`` was on.
    final var backtrace: CreationBacktrace? { extras?.backtrace }

    /// The continuation; valid once the box is pending (see `rawStorage`).
    @inlinable
    final var raw: UnsafeContinuation<Success, Failure> { rawStorage.unsafelyUnwrapped }

    deinit {
        defer { extrasStorage?.release() }
        if links.contains(.timed) { TimeoutScheduler.shared.remove(at: { timerIndex }) }
        // A FallbackContinuationStorage has already finished the leak in its own deinit.
        guard transition(.lastCopyDropped) == .finish(.leaked) else { return }
        reportLeak(.threwLeaked)
        // Only the throwing form (Failure == any Error) gets here.
        raw.resume(throwing: SafeContinuationError(code: .leaked, creationSite: site) as any Error as! Failure)
    }

    /// Reports a leak, saying what it did to the waiter.
    final func reportLeak(_ outcome: LeakOutcome) {
        let misuse = ContinuationMisuse(
            leakedAt: site, outcome: outcome, backtrace: backtrace?.symbolicatedFrames() ?? [])
        trace?.emit(.continuationMisused(misuse))
        ContinuationMisuseHandler.deliver(misuse, to: scope)
    }

    /// Moves the state for `event` with one CAS and says what the caller must do.
    @inlinable @inline(__always)
    final func transition(_ event: ContinuationStateMachine.Event) -> ContinuationStateMachine.Outcome {
        var current = ContinuationStateMachine(stored: state.load(ordering: .relaxed))
        while true {
            let outcome = current.on(event)
            let next: ContinuationStateMachine
            switch outcome {
            case .finish(let state), .move(let state): next = state
            case .dropLate:
                ContinuationCounters.countLateResume()
                return outcome
            case .reportExtraResume, .ignore:
                return outcome
            }
            let (exchanged, original) = state.compareExchange(
                expected: current.rawValue, desired: next.rawValue, ordering: .acquiringAndReleasing)
            if exchanged {
                if case .finish = outcome, !links.isDisjoint(with: .observed) || next != .resumed {
                    finished(as: next)
                }
                return outcome
            }
            current = ContinuationStateMachine(stored: original)
        }
    }

    /// Bookkeeping for the rare paths: registry, counters.
    @usableFromInline @inline(never)
    final func finished(as next: ContinuationStateMachine) {
        if links.contains(.registered) { PendingContinuations.unregister(ObjectIdentifier(self)) }
        ContinuationCounters.shared.count(next)
        // Here, before the caller resumes the waiter: once resumed, the
        // waiter may end its recording, and a later event would be dropped.
        // A cancellation handler can finish a box whose last copy is being
        // dropped on another thread; by then `deinit` may have released its
        // own reference to the extras. They are still alive: the frame that
        // installed the handler holds them until the handler is removed (the
        // box's memory, where `links` is, is pinned by that frame too).
        if links.contains(.traced), let trace = extras?.trace { Instrumentation.endWait(trace, as: next) }
    }

    /// Whether the waiter is still waiting (it may stop right after).
    @inlinable
    final var isWaiting: Bool { state.load(ordering: .relaxed) == ContinuationStateMachine.pending.rawValue }

    /// Resumes the waiter with `result` if this call wins; otherwise reports or drops.
    @inlinable @inline(__always)
    final func resume(with result: sending Result<Success, Failure>, at resumeSite: @autoclosure () -> CallSite)
        -> Bool
    {
        switch transition(.resume) {
        case .finish:
            raw.resume(with: result)
            return true
        case .reportExtraResume:
            reportExtraResume(at: resumeSite())
            return false
        case .dropLate, .ignore, .move:
            return false
        }
    }

    @usableFromInline @inline(never)
    final func reportExtraResume(at resumeSite: CallSite) {
        var misuse = ContinuationMisuse(kind: .resumedMoreThanOnce, creationSite: site, resumeSite: resumeSite)
        misuse.creationBacktrace = backtrace?.symbolicatedFrames() ?? []
        trace?.emit(.continuationMisused(misuse))
        ContinuationMisuseHandler.deliver(misuse, to: scope)
    }

    override final func timeOut(after timeout: Duration) -> (@Sendable () -> Void)? {
        guard case .finish = transition(.timeout) else { return nil }
        // Timeouts exist only on the throwing form (Failure == any Error).
        let error = SafeContinuationError(code: .timedOut, creationSite: site, timeout: timeout) as any Error as! Failure
        let raw = self.raw
        // The timeout won: it resumes the waiter, then stops the work, once.
        guard let stop = stopWork else { return { raw.resume(throwing: error) } }
        return {
            raw.resume(throwing: error)
            stop()
        }
    }

    /// What stops the callback API when the wait ends early: the `onCancel:`
    /// of a ``StoppableContinuationStorage``; nil for every other box.
    var stopWork: (@Sendable () -> Void)? { nil }
}

extension ContinuationStorage where Failure == any Error {
    /// Hands an unarmed box its continuation. `false` means the task was
    /// cancelled before this: the waiter has been resumed with
    /// `CancellationError`, and the body must not run.
    @inlinable
    final func arm(_ raw: UnsafeContinuation<Success, any Error>) -> Bool {
        rawStorage = raw  // published by the CAS below
        switch transition(.arm) {
        case .move:
            return true
        case .finish:
            raw.resume(throwing: CancellationError())
            return false
        case .reportExtraResume, .dropLate, .ignore:
            preconditionFailure("a continuation box is armed once, while unarmed")
        }
    }

    /// Called from the task's cancellation handler, through an unretained
    /// pointer kept valid by an ``UnownedPin``. Resumes the waiter with
    /// `CancellationError` if nothing finished it first, and returns whether
    /// `onCancel` should run: the cancellation won, or the box is not armed
    /// yet and arming will finish it.
    ///
    /// It reads the box's other fields only after winning the state CAS. A
    /// cancellation can win it against a `deinit` already running on another
    /// thread (the last copy was just dropped): it then reads the raw
    /// continuation and `links`, plain values in the memory the pin keeps,
    /// and the extras, which the installing frame keeps alive (see
    /// `withSafeThrowingContinuation`); never anything `deinit` releases.
    @inlinable
    final func cancelFromHandler() -> Bool {
        switch transition(.cancel) {
        case .finish:
            raw.resume(throwing: CancellationError())
            return true
        case .move:
            return true
        case .reportExtraResume, .dropLate, .ignore:
            return false
        }
    }
}

/// Who else must hear when a box finishes, besides its waiter.
/// (Computed constants, not `static let`s: a stored static costs a
/// once-check on every access, on the round trip's hot path.)
@usableFromInline
struct ContinuationLinks: OptionSet, Sendable {
    @usableFromInline let rawValue: UInt8
    @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Listed in ``PendingContinuations`` until it finishes.
    @inlinable static var registered: ContinuationLinks { ContinuationLinks(rawValue: 1) }
    /// Has an entry in the shared timeout scheduler.
    @inlinable static var timed: ContinuationLinks { ContinuationLinks(rawValue: 2) }
    /// Reports its end to a trace recording (see ``TraceRecorder``).
    @inlinable static var traced: ContinuationLinks { ContinuationLinks(rawValue: 4) }
    /// The links that must hear even a plain resume: one test on the hot path.
    @inlinable static var observed: ContinuationLinks { ContinuationLinks(rawValue: 1 | 4) }
}
