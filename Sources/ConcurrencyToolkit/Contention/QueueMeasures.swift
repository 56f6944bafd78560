/// What a ``MonitoredActorExecutor`` measures, updated in O(1) per job and
/// with no allocation: counts, waits (maximum, histogram, and waiting ×
/// time), busy time, queue depth, and the peaks of the current *backlog*
/// (the time the queue has been non-empty without a break) that the
/// contention watcher reads.
///
/// ```swift
/// var measures = QueueMeasures()
/// measures.enqueued(depth: 1, now: 0)
/// measures.started(enqueuedAt: 0, depth: 0, now: 40)   // waited 40 ns
/// measures.finished(startedAt: 40, now: 100)           // busy 60 ns
/// ```
struct QueueMeasures {
    private(set) var started: UInt64 = 0
    private(set) var busy: UInt64 = 0
    private(set) var maxDepth = 0
    private(set) var waits = WaitHistogram()
    /// The longest wait so far (exact: the histogram keeps it).
    var longestWait: UInt64 { waits.largest }
    /// ∫ depth dt in nanoseconds: every waiting job adds its waiting time,
    /// as Abseil's mutex profiler and Go's (since 1.22) count contention.
    private var waitingTime: UInt64 = 0
    private var depth = 0
    private var lastDepthChange: UInt64 = 0
    /// When the queue last became non-empty; nil while it is empty.
    private(set) var backlogSince: UInt64?
    private var current: ContentionPeaks?
    private var ended: ContentionPeaks?

    mutating func enqueued(depth newDepth: Int, now: UInt64) {
        integrate(now: now, newDepth: newDepth)
        maxDepth = max(maxDepth, newDepth)
        if newDepth == 1 {
            backlogSince = now
            current = ContentionPeaks(since: now, maxWait: 0, maxDepth: 1, jobs: 1, waitingTime: waitingTime)
        } else {
            if var peaks = current {
                peaks.jobs += 1
                peaks.maxDepth = max(peaks.maxDepth, newDepth)
                current = peaks
            }
        }
    }

    mutating func started(enqueuedAt: UInt64, depth newDepth: Int, now: UInt64) {
        let wait = now > enqueuedAt ? now - enqueuedAt : 0
        started &+= 1
        waits.record(wait)
        integrate(now: now, newDepth: newDepth)
        if var peaks = current {
            peaks.maxWait = max(peaks.maxWait, wait)
            current = peaks
        }
        if newDepth == 0, var peaks = current {
            // The backlog ends: keep its peaks until the watcher reads them.
            peaks.waitingTime = waitingTime &- peaks.waitingTime
            ended = ended.map { $0.merged(with: peaks) } ?? peaks
            current = nil
            backlogSince = nil
        }
    }

    mutating func finished(startedAt: UInt64, now: UInt64) {
        busy &+= now > startedAt ? now - startedAt : 0
    }

    /// The waiting time so far, counting the jobs waiting now up to `now`.
    func waitingTime(now: UInt64) -> UInt64 {
        waitingTime &+ UInt64(depth) &* (now > lastDepthChange ? now - lastDepthChange : 0)
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
        // The jobs waiting now were counted by the episode that just ended.
        current = ContentionPeaks(since: now, maxWait: 0, maxDepth: depth, jobs: 0, waitingTime: waitingTime(now: now))
    }

    private mutating func integrate(now: UInt64, newDepth: Int) {
        // Times are read before the lock is taken, so one may be a little
        // older than the last change: count nothing for it then.
        if now > lastDepthChange {
            waitingTime &+= UInt64(depth) &* (now - lastDepthChange)
            lastDepthChange = now
        }
        depth = newDepth
    }
}

/// The peaks of one backlog (or part of one), as the contention watcher reads them.
struct ContentionPeaks: Equatable {
    var since: UInt64
    var maxWait: UInt64
    var maxDepth: Int
    /// Jobs that queued in it.
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
}
