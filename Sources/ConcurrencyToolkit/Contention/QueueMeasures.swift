/// What a ``MonitoredActorExecutor`` measures, updated in O(1) per job and
/// with no allocation: counts, waits (maximum, histogram, and waiting ×
/// time), busy time, queue depth, and the peaks of the current *backlog*
/// (the time the queue has been non-empty without a break) that the
/// contention watcher reads.
///
/// A job's **wait** is the time it spent queued *while another job of the
/// actor ran*: the contention, not the queue time. Waits are read on the
/// *busy clock* (``busyClock(now:)``: the time spent running jobs), which
/// stands still while the actor is idle, so a job that waited for a pool
/// thread to wake an idle actor (a saturated pool: the stall detector's
/// report) waited zero here. Go's mutex profile stops a waiter's clock at the
/// unlock for the same reason.
struct QueueMeasures {
    private(set) var started: UInt64 = 0
    /// Time spent running the jobs that have finished.
    private(set) var busy: UInt64 = 0
    private(set) var maxDepth = 0
    private(set) var waits = WaitHistogram()
    /// The longest wait so far (exact: the histogram keeps it).
    var longestWait: UInt64 { waits.largest }
    /// When the job running now started; nil while none runs.
    private var runningSince: UInt64?
    /// ∫ depth d(busy clock) in nanoseconds: every waiting job adds its
    /// wait, as Abseil's mutex profiler and Go's (since 1.22) count contention.
    private var waitingTime: UInt64 = 0
    private var depth = 0
    /// The busy clock at the last change of depth.
    private var lastDepthChange: UInt64 = 0
    /// When (wall clock) the queue last became non-empty; nil while it is empty.
    private(set) var backlogSince: UInt64?
    /// The busy clock then: no job waiting now has waited longer than the
    /// busy clock has moved since.
    private(set) var backlogBusySince: UInt64 = 0
    private var current: ContentionPeaks?
    private var ended: ContentionPeaks?

    /// The time spent running jobs up to `now`, the running one included:
    /// the clock waits are read on.
    func busyClock(now: UInt64) -> UInt64 {
        busy &+ runningFor(now: now)
    }

    /// How long the job running now has run (0: none).
    func runningFor(now: UInt64) -> UInt64 {
        guard let runningSince, now > runningSince else { return 0 }
        return now - runningSince
    }

    /// A job was queued; returns the busy clock, for its wait when it starts.
    mutating func enqueued(depth newDepth: Int, now: UInt64) -> UInt64 {
        let clock = busyClock(now: now)
        integrate(clock: clock, newDepth: newDepth)
        maxDepth = max(maxDepth, newDepth)
        if newDepth == 1 {
            backlogSince = now
            backlogBusySince = clock
            current = ContentionPeaks(since: now, maxWait: 0, maxDepth: 1, jobs: 0, waitingTime: waitingTime)
        } else if var peaks = current {
            peaks.maxDepth = max(peaks.maxDepth, newDepth)
            current = peaks
        }
        return clock
    }

    /// A job queued at busy clock `busyAtEnqueue` starts running at `now`;
    /// returns its wait.
    @discardableResult
    mutating func started(busyAtEnqueue: UInt64, depth newDepth: Int, now: UInt64) -> UInt64 {
        let clock = busyClock(now: now)
        let wait = clock > busyAtEnqueue ? clock - busyAtEnqueue : 0
        started &+= 1
        waits.record(wait)
        integrate(clock: clock, newDepth: newDepth)
        runningSince = now
        if var peaks = current {
            peaks.maxWait = max(peaks.maxWait, wait)
            // Only a job that waited behind another counts: the first of a
            // backlog found the actor free (it waited for a thread, if at all).
            if wait > 0 { peaks.jobs += 1 }
            current = peaks
        }
        if newDepth == 0, var peaks = current {
            // The backlog ends: keep its peaks until the watcher reads them.
            peaks.waitingTime = waitingTime &- peaks.waitingTime
            ended = ended.map { $0.merged(with: peaks) } ?? peaks
            current = nil
            backlogSince = nil
        }
        return wait
    }

    /// The job running now returned at `now`.
    mutating func finished(now: UInt64) {
        busy = busyClock(now: now)
        runningSince = nil
    }

    /// The waiting time so far, counting the jobs waiting now up to `now`.
    func waitingTime(now: UInt64) -> UInt64 {
        let clock = busyClock(now: now)
        return waitingTime &+ UInt64(depth) &* (clock > lastDepthChange ? clock - lastDepthChange : 0)
    }

    /// The current backlog's peaks, its waiting time counted up to `now`.
    func currentPeaks(now: UInt64) -> ContentionPeaks? {
        guard var peaks = current else { return nil }
        peaks.waitingTime = waitingTime(now: now) &- peaks.waitingTime
        return peaks
    }

    /// The peaks of the backlogs that ended since the last call.
    mutating func takeEndedPeaks() -> ContentionPeaks? {
        defer { ended = nil }
        return ended
    }

    mutating func restartPeaks(depth: Int, now: UInt64) {
        guard current != nil else { return }
        // The jobs waiting now count where they start, in these new peaks.
        current = ContentionPeaks(since: now, maxWait: 0, maxDepth: depth, jobs: 0, waitingTime: waitingTime(now: now))
    }

    private mutating func integrate(clock: UInt64, newDepth: Int) {
        // Times are read before the lock is taken, so one may be a little
        // older than the last change: count nothing for it then.
        if clock > lastDepthChange {
            waitingTime &+= UInt64(depth) &* (clock - lastDepthChange)
            lastDepthChange = clock
        }
        depth = newDepth
    }
}

/// The peaks of one backlog (or part of one), as the contention watcher reads them.
struct ContentionPeaks: Equatable {
    var since: UInt64
    var maxWait: UInt64
    var maxDepth: Int
    /// Jobs that started in it after waiting behind another job of the
    /// actor (a wait above zero on the busy clock); not the ones that found
    /// the actor free, nor those still queued.
    var jobs: Int
    /// Its waiting × time in nanoseconds (while kept inside
    /// ``QueueMeasures``: the running total at its start).
    var waitingTime: UInt64

    func merged(with other: ContentionPeaks) -> ContentionPeaks {
        ContentionPeaks(
            since: min(since, other.since), maxWait: max(maxWait, other.maxWait),
            maxDepth: max(maxDepth, other.maxDepth), jobs: jobs + other.jobs,
            waitingTime: waitingTime &+ other.waitingTime)
    }
}

/// One look of the watcher at one executor.
struct ContentionObservation {
    /// How long the longest-waiting job has waited, when at least the threshold; else 0.
    var oldestWait: UInt64
    var depth: Int
    /// The OS thread running the actor's job now (0: none).
    var holderThread: UInt64
    /// Jobs started so far: the holder is the same job while this stays.
    var holderSerial: UInt64
    var current: ContentionPeaks?
    var ended: ContentionPeaks?
    /// The executor is gone (its actor was released): no job will queue again.
    var executorGone = false
}
