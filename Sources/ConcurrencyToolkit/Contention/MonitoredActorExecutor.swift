/// A serial executor that an actor adopts in one line to be measured: how
/// many jobs it ran, how long they waited for it (median, 99th percentile,
/// longest), how busy it was, how deep its queue grew, and — with
/// ``ActorContentionDetector`` running — a report, ``ActorContention``, each
/// time work waited for it longer than a threshold, naming the job that held it.
///
/// ```swift
/// actor ImageCache {
///     nonisolated let executor = MonitoredActorExecutor(label: "ImageCache")
///     nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
///
///     private var images: [URL: Image] = [:]
///     func image(for url: URL) -> Image? { images[url] }
/// }
///
/// let stats = ImageCache().executor.statistics
/// metrics.record("cache.wait.p99", stats.p99Wait)
/// ```
///
/// It keeps what an actor means: one job at a time, `assertIsolated` and
/// `preconditionIsolated` hold inside its methods, and a higher-priority job
/// runs before lower ones already waiting (first come, first served within a
/// priority). Jobs run on the cooperative pool, like a default actor's, on a
/// thread of their priority.
///
/// In a trace (``withTraceRecording(isolation:_:)``) the actor has a row of
/// its own: its jobs, its queue depth over time, and a line in the summary's
/// table of monitored actors. An executor created inside a recording is in
/// that recording only; one created outside any (a long-lived actor) is in
/// every recording running while it works.
///
/// Cost: a lock and two clock reads per job, no allocation per job
/// (Documentation/Performance.md has the figures); while nothing records,
/// the trace adds a relaxed load and a branch. An actor that does not adopt it pays nothing.
///
/// - Lifetime: keep the executor in a stored property of the actor (as
///   above): the actor holds its executor unowned. When the executor is
///   released (with its actor), its parked runner tasks end.
/// - Cancellation: a task's cancellation is the task's business; this
///   executor only decides when and where its jobs run. Jobs enqueued are
///   always run.
public final class MonitoredActorExecutor: SerialExecutor, Sendable {
    /// The name reports, statistics and traces show.
    ///
    /// For example: `print(cache.executor.label)   // "ImageCache"`
    public var label: String { core.label }

    let core: MonitoredExecutorCore

    /// Creates an executor named `label`; it starts measuring at once.
    ///
    /// ```swift
    /// let executor = MonitoredActorExecutor(label: "CompressionWorker")   // a `nonisolated let` of the actor
    /// ```
    public init(label: String) {
        core = MonitoredExecutorCore(label: label)
        ContentionRegistry.shared.add(core)
    }

    deinit {
        core.stop()
    }

    /// Queues an actor job. Called by the runtime, not by you.
    ///
    /// For example: `_ = await cache.image(for: url)   // the runtime enqueues the call here`
    public func enqueue(_ job: consuming ExecutorJob) {
        core.enqueue(UnownedJob(job), executor: asUnownedSerialExecutor())
    }

    /// What the actor's `unownedExecutor` returns:
    ///
    /// ```swift
    /// let unowned = cache.executor.asUnownedSerialExecutor()   // what the actor's `unownedExecutor` returns
    /// ```
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Stops the process unless the caller is running one of this executor's
    /// jobs; the runtime calls it for `assertIsolated`/`assumeIsolated` when
    /// it cannot tell by itself (code called synchronously from the actor).
    ///
    /// For example: `cache.executor.checkIsolated()   // inside an ImageCache method: passes`
    public func checkIsolated() {
        checkPrecondition(isRunningCurrentThread, "not running on the actor of MonitoredActorExecutor '\(label)'")
    }

    /// Whether the caller is running one of this executor's jobs.
    ///
    /// For example: `if cache.executor.isIsolatingCurrentContext() == true { /* inside the actor */ }`
    @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
    public func isIsolatingCurrentContext() -> Bool? {
        isRunningCurrentThread
    }

    private var isRunningCurrentThread: Bool {
        let thread = CurrentThread.id
        return core.state.withLock { $0.isHolder(thread) }
    }

    /// The measures so far, from the executor's creation: a snapshot to export as metrics.
    ///
    /// ```swift
    /// let stats = cache.executor.statistics
    /// print("\(stats.label): \(stats.jobs) jobs, waited up to \(stats.longestWait)")
    /// ```
    public var statistics: Statistics {
        let now = MonotonicClock.now
        let (label, age) = (label, now &- core.createdAt)
        // Built under the lock: a copy of the measures taken out would make
        // the next job copy the histogram (copy on write) under the lock.
        return core.state.withLock { queue in
            Statistics(
                measures: queue.stats, depth: queue.heap.count, label: label, age: age, now: now)
        }
    }
}
