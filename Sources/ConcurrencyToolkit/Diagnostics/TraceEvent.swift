/// One thing the toolkit (or your code, through ``span(_:_:)`` and
/// ``marker(_:)``) did while a recording was active.
///
/// You rarely read events one by one; export the ``Trace`` instead. They are
/// there for tests and for your own tools:
///
/// ```swift
/// let (_, trace) = await withTraceRecording { await squeezer.run() }
/// let jobs = trace.events.filter { if case .jobStarted = $0.kind { true } else { false } }
/// print("\(jobs.count) blocking jobs ran")
/// ```
///
/// Events that begin and end something (a job queued, then started, then
/// finished) share one ``id``; standalone events (markers) have id 0.
public struct TraceEvent: Sendable, Hashable {
    /// What happened. New kinds may be added: switch with a `default`.
    ///
    /// ```swift
    /// for event in trace.events {
    ///     switch event.kind {
    ///     case .jobStarted(let executor, let lane): print("\(executor) lane \(lane) started job \(event.id)")
    ///     case .continuationMisused(let misuse): print(misuse)
    ///     default: break
    ///     }
    /// }
    /// ```
    public enum Kind: Sendable, Hashable {
        // How each kind is drawn, exported and summarized: TraceEventKinds.swift.
        // MARK: BlockingExecutor
        /// A blocking job was submitted to `executor` and waits for a lane.
        case jobQueued(executor: String)
        /// The job left the queue and started on lane `lane` (this thread).
        case jobStarted(executor: String, lane: Int)
        /// The job's closure returned (`failed`: it threw).
        case jobFinished(failed: Bool)
        /// The job never ran: cancelled while queued, or the executor shut down.
        case jobDiscarded(reason: String)

        // MARK: SafeContinuation
        /// A task suspended on a continuation created at `site`.
        case continuationCreated(site: CallSite)
        /// The continuation was resumed; the waiting ends here.
        case continuationResumed
        /// The continuation's timeout fired before any resume.
        case continuationTimedOut
        /// The waiting task was cancelled before any resume.
        case continuationCancelled
        /// A misuse report (a leak also ends the waiting). Boxed: rare, and it
        /// would otherwise make every event as large as two source sites.
        indirect case continuationMisused(ContinuationMisuse)

        // MARK: Stall detection
        /// A stall report from the ``StallDetector`` (ongoing or ended),
        /// emitted on the detector's watchdog thread into every recording
        /// active then. Boxed like a misuse.
        indirect case stalled(ConcurrencyStall)

        // MARK: Actor contention
        /// An ``ActorContention`` report (one per episode when it ends, and
        /// one while it lasts past 10 s, then every minute),
        /// emitted on the detector's watcher thread. Boxed like a misuse.
        indirect case actorContended(ActorContention)

        // MARK: Monitored actors
        /// A job was queued on the ``MonitoredActorExecutor`` labelled `actor`;
        /// `depth` jobs wait now, this one included. An actor's events go into
        /// the recording that was running where its executor was created (as
        /// a ``ThrottledProgress``'s do), whichever task calls it; they are
        /// timed under the executor's lock, so that its depths read in time
        /// order are the depths its queue went through.
        case actorJobQueued(actor: String, depth: Int)
        /// A job of `actor` started after waiting `waited` nanoseconds; `depth`
        /// jobs still wait. Its thread runs the actor until the job ends.
        case actorJobStarted(actor: String, depth: Int, waited: UInt64)
        /// That job returned (at its end or its next suspension) after running
        /// `ran` nanoseconds.
        case actorJobFinished(actor: String, ran: UInt64)

        // MARK: Actor-split helpers
        /// A throttled or batching helper started delivering `count` values:
        /// what the handler receives (`.progress`: 1 for `ThrottledProgress`,
        /// the changed keys for the keyed variant; `.batch`: items in the batch).
        case deliveryStarted(DeliveryKind, count: Int)
        /// The delivery handler returned.
        case deliveryFinished
        /// A `concurrentMap`/`concurrentForEach` child started on element `index`.
        case childStarted(index: Int)
        /// That child finished.
        case childFinished

        // MARK: Your code
        /// The synchronous ``span(_:_:)`` began: it runs on this thread until it ends.
        case spanStarted(name: String)
        /// The asynchronous ``span(_:isolation:_:)`` began: it may suspend and
        /// resume on other threads, so it is task time, not thread time.
        case asyncSpanStarted(name: String)
        /// A span (either kind) ended.
        case spanFinished
        /// ``marker(_:)``: an instant worth seeing on the timeline.
        case marker(name: String)
    }

    /// Which actor-split helper delivered: a progress value (``ThrottledProgress``,
    /// ``KeyedThrottledProgress``) or a batch (``BatchingReporter``).
    ///
    /// ```swift
    /// let batches = trace.events.filter {
    ///     if case .deliveryStarted(.batch, _) = $0.kind { true } else { false }
    /// }
    /// ```
    public enum DeliveryKind: String, Sendable, Hashable {
        /// `ThrottledProgress` (and its keyed variant): newest values only.
        case progress
        /// The accumulating variant: every item, in batches.
        case batch
    }

    /// What happened.
    public var kind: Kind
    /// Shared by the begin and end events of one job, wait, delivery, child or span; 0 for markers.
    public var id: UInt64
    /// Nanoseconds since the recording started (monotonic clock).
    public var time: UInt64
    /// The OS thread id of the thread that emitted the event (see ``Trace/threads``).
    public var threadID: UInt64
    /// Whether that thread was running the main queue (and so the main actor)
    /// when it emitted the event. Dispatch moves its worker threads between the
    /// main queue, executor lanes and other queues, so this is a property of
    /// the event, not of the thread. Events of the process's main thread
    /// (``TraceThread/isMain``) are on main whatever this says.
    public var onMain: Bool

    /// Creates an event; the toolkit records these for you.
    ///
    /// ```swift
    /// let event = TraceEvent(kind: .marker(name: "scan done"), id: 0, time: 1_000, threadID: 42)
    /// let delivery = TraceEvent(kind: .deliveryFinished, id: 7, time: 2_000, threadID: 42, onMain: true)
    /// ```
    public init(kind: Kind, id: UInt64, time: UInt64, threadID: UInt64, onMain: Bool = false) {
        self.kind = kind
        self.id = id
        self.time = time
        self.threadID = threadID
        self.onMain = onMain
    }
}
