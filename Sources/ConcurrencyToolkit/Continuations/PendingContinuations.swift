/// What is waiting right now: the safe continuations not yet resumed, with
/// where they were created, how long they have waited and at what priority —
/// the answer to "which task is stuck, and where did it suspend?".
///
/// ```swift
/// PendingContinuations.isTracking = true          // or CONCURRENCY_TOOLKIT_TRACK_CONTINUATIONS=1
/// ...
/// for waiting in PendingContinuations.snapshot().pending.sorted(by: { $0.age > $1.age }) {
///     print(waiting)   // "App/Sync.swift:88 in pull(), waiting for 41.2 seconds (priority 21)"
/// }
/// ```
///
/// Listing is opt-in because it costs a lock and a clock read per
/// continuation (see Documentation/SafeContinuation.md for the numbers), which
/// would make the plain path slower than `withCheckedThrowingContinuation`.
/// Turn it on with ``isTracking`` or by setting the environment variable
/// `CONCURRENCY_TOOLKIT_TRACK_CONTINUATIONS=1` before the first continuation
/// is created. Continuations created while tracking is off are never listed.
/// The counters in ``Snapshot`` are always kept.
public enum PendingContinuations {
    /// Whether continuations created from now on are listed. Turning it off
    /// does not drop the ones already listed; they leave the list when they finish.
    ///
    /// ```swift
    /// #if DEBUG
    /// PendingContinuations.isTracking = true
    /// #endif
    /// ```
    public static var isTracking: Bool {
        get { ContinuationOptions.isOn(ContinuationOptions.tracking) }
        set { ContinuationOptions.set(ContinuationOptions.tracking, newValue) }
    }

    /// A consistent copy of the list and the process-wide counters.
    ///
    /// ```swift
    /// let snapshot = PendingContinuations.snapshot()
    /// if snapshot.lateResumes > 0 { logger.notice("\(snapshot.lateResumes) callbacks arrived after a timeout") }
    /// ```
    public struct Snapshot: Sendable {
        /// The listed continuations not yet resumed (empty while tracking was off).
        ///
        /// For example: `let oldest = snapshot.pending.max { $0.age < $1.age }`
        public var pending: [PendingContinuation]
        /// Waiters resumed with `SafeContinuationError.timedOut` since the process started.
        ///
        /// For example: `metrics.gauge("continuations.timed_out", snapshot.timedOut)`
        public var timedOut: Int
        /// Waiters resumed with `CancellationError` by their task's cancellation.
        ///
        /// For example: `metrics.gauge("continuations.cancelled", snapshot.cancelled)`
        public var cancelled: Int
        /// Continuations dropped without a resume (each also reported as misuse).
        ///
        /// For example: `assert(PendingContinuations.snapshot().leaked == 0, "a callback API dropped a continuation")`
        public var leaked: Int
        /// Resumes that came after a timeout, cancellation or leak had already
        /// resumed the waiter. Expected with timeouts; dropped without a report.
        ///
        /// ```swift
        /// metrics.gauge("continuations.late_resumes", snapshot.lateResumes)   // high: timeouts too short?
        /// ```
        public var lateResumes: Int
    }

    /// Takes a snapshot. Cheap enough to call from a debug endpoint or a
    /// signal-driven dump; it holds the registry lock while copying.
    ///
    /// For example: `let stuck = PendingContinuations.snapshot().pending.filter { $0.age > .seconds(10) }`
    public static func snapshot() -> Snapshot {
        let now = ContinuousClock.now
        let registrations = registry.withLock { Array($0.values) }
        let counters = ContinuationCounters.shared
        return Snapshot(
            pending: registrations.map {
                PendingContinuation(site: $0.site, age: now - $0.created, priority: $0.priority, timeout: $0.timeout)
            },
            timedOut: counters.timedOut.load(ordering: .relaxed),
            cancelled: counters.cancelled.load(ordering: .relaxed),
            leaked: counters.leaked.load(ordering: .relaxed),
            lateResumes: counters.lateResumes.load(ordering: .relaxed))
    }

    // MARK: - Storage

    struct Registration: Sendable {
        let site: CallSite
        let created: ContinuousClock.Instant
        let priority: TaskPriority
        let timeout: Duration?
    }

    static let registry = Lock<[ObjectIdentifier: Registration]>([:])

    @usableFromInline
    static func register(_ id: ObjectIdentifier, site: CallSite, timeout: Duration?) {
        let registration = Registration(
            site: site, created: .now, priority: Task.currentPriority, timeout: timeout)
        registry.withLock { $0[id] = registration }
    }

    @usableFromInline
    static func unregister(_ id: ObjectIdentifier) {
        // The box is still alive here (its finishing transition runs before
        // its memory can be reused), so `id` cannot name a newer box yet.
        _ = registry.withLock { $0.removeValue(forKey: id) }
    }
}
