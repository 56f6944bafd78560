/// The state of a ``MonitoredActorExecutor``: the waiting jobs, who runs
/// them, and what is measured. A pure value (events in, actions out), kept
/// under the executor's lock by ``MonitoredExecutorCore``, which performs
/// the actions after unlocking.
///
/// Jobs run on *runners*: one drain task per priority band (background,
/// low, medium, high), made the first time a job of that band wakes the
/// queue and parked on a continuation while the queue is empty. At most one
/// runner owns the queue at a time (`running`), which is what makes the
/// actor serial. A runner hands the queue to a higher band's runner when a
/// more urgent job is next, so that job runs on a thread of its priority.
struct MonitoredQueueStateMachine<Job, Waker> {
    enum WakeAction {
        case none
        /// Resume this parked runner.
        case resume(Waker)
        /// Make the runner of this band (its first job).
        case spawn(band: Int)
    }

    enum NextAction {
        case run(Job)
        /// The queue is empty: park.
        case idle
        /// A job of a higher band is next: wake its runner, then park.
        case handOff(WakeAction)
    }

    enum ParkAction {
        case parked
        /// Go on at once (`true`), or end (`false`: the executor is gone).
        case resumeNow(Bool)
    }

    static var bandCount: Int { 4 }

    /// The band of a job priority: background, low/utility, medium/default, high/user-initiated.
    static func band(of priority: UInt8) -> Int {
        switch priority {
        case 0: return 2  // unspecified runs as default
        case ...0x09: return 0
        case ...0x11: return 1
        case ...0x15: return 2
        default: return 3
        }
    }

    private(set) var heap = JobHeap<Job>()
    private var nextOrder: UInt64 = 0
    /// A runner owns the queue (running a job, or woken to).
    private(set) var running = false
    private var parked: [Waker?] = Array(repeating: nil, count: 4)
    private var spawned: [Bool] = Array(repeating: false, count: 4)
    /// Woken before it parked: its next park returns at once.
    private var wakePending: [Bool] = Array(repeating: false, count: 4)
    private var stopping = false

    // MARK: Measures
    private(set) var stats = QueueMeasures()

    /// Thread running the current job (0: none); when it started, ``QueueMeasures`` keeps.
    private(set) var holderThread: UInt64 = 0
    /// What the trace reads of the last changes (copied out only while one records).
    private(set) var traceChanges = QueueTraceChanges()

    // MARK: Events

    mutating func enqueue(_ job: Job, priority: UInt8, now: UInt64) -> WakeAction {
        let busyAtEnqueue = stats.enqueued(depth: heap.count + 1, now: now)
        heap.push(.init(job: job, priority: priority, busyAtEnqueue: busyAtEnqueue, order: nextOrder))
        nextOrder &+= 1
        traceChanges.queued(now: now, depth: heap.count)
        guard !running else { return .none }
        running = true
        return wake(band: Self.band(of: priority))
    }

    /// A runner of `band` asks what to do next; `finished` says it has just
    /// run a job (which ended at `now`).
    mutating func next(band: Int, now: UInt64, finished: Bool, thread: UInt64) -> NextAction {
        if finished {
            traceChanges.finished(now: now, ran: stats.runningFor(now: now))
            stats.finished(now: now)
            holderThread = 0
        }
        guard let top = heap.topPriority else {
            running = false
            return .idle
        }
        let topBand = Self.band(of: top)
        if topBand > band {
            return .handOff(wake(band: topBand))
        }
        let entry = heap.pop()!
        let waited = stats.started(busyAtEnqueue: entry.busyAtEnqueue, depth: heap.count, now: now)
        traceChanges.started(now: now, waited: waited, depth: heap.count)
        holderThread = thread
        return .run(entry.job)
    }

    /// A runner of `band` found the queue empty (or handed it off) and parks.
    mutating func park(band: Int, waker: Waker) -> ParkAction {
        if stopping { return .resumeNow(false) }
        if wakePending[band] {
            wakePending[band] = false
            return .resumeNow(true)
        }
        parked[band] = waker
        return .parked
    }

    /// The executor is going away: every parked runner ends.
    mutating func stop() -> [Waker] {
        stopping = true
        defer { parked = Array(repeating: nil, count: Self.bandCount) }
        return parked.compactMap { $0 }
    }

    /// Whether `thread` is running a job of this queue now.
    func isHolder(_ thread: UInt64) -> Bool { running && holderThread == thread }

    /// Whether `thread` is still running the job that was the `serial`th
    /// started: not the next one on the same runner thread.
    func isHolder(_ thread: UInt64, serial: UInt64) -> Bool { isHolder(thread) && stats.started == serial }

    // MARK: Contention episodes (the watcher)

    /// What the watcher sees in one look. `oldestWait` (the longest wait
    /// behind other jobs of a job waiting now) is exact when at least
    /// `threshold`, else 0: the heap is scanned only when the busy clock has
    /// moved that far since the queue last became non-empty (every job
    /// waiting now was enqueued since, so none has waited longer).
    mutating func observe(now: UInt64, threshold: UInt64) -> ContentionObservation {
        var oldest: UInt64 = 0
        let clock = stats.busyClock(now: now)
        if stats.backlogSince != nil, clock &- stats.backlogBusySince >= threshold, clock >= stats.backlogBusySince,
            let earliest = heap.earliestBusyAtEnqueue, clock > earliest
        {
            oldest = clock - earliest
        }
        return ContentionObservation(
            oldestWait: oldest, depth: heap.count, holderThread: running ? holderThread : 0,
            holderSerial: stats.started, current: stats.currentPeaks(now: now), ended: stats.takeEndedPeaks(),
            executorGone: stopping)
    }

    /// Starts new peaks for the backlog still going on (an episode ended within it).
    mutating func restartPeaks(now: UInt64) {
        stats.restartPeaks(depth: heap.count, now: now)
    }

    // MARK: Private

    private mutating func wake(band: Int) -> WakeAction {
        if let waker = parked[band] {
            parked[band] = nil
            return .resume(waker)
        }
        if !spawned[band] {
            spawned[band] = true
            return .spawn(band: band)
        }
        wakePending[band] = true
        return .none
    }
}
