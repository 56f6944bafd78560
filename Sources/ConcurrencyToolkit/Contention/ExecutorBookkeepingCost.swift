/// What the benchmarks measure of ``MonitoredActorExecutor``'s bookkeeping,
/// and nothing more: the time its queue's state machine takes per job with
/// everything it measures (two clock reads, the counts, the wait histogram,
/// waiting × time, the trace's stamps), beside a bare priority heap doing
/// the same pushes and pops (the least a serial executor that keeps
/// priorities does). The difference, per job, is the bookkeeping. Neither
/// takes the lock or wakes a runner: those a custom executor pays anyway,
/// and the hop benchmarks time them. Not API (the leading underscore):
/// public only because the Benchmarks package (`HandOffHarness`) is another
/// package; it may change in any release.
///
/// ```swift
/// import ConcurrencyToolkit
///
/// let measured = _ExecutorBookkeepingCost.monitoredQueue(jobs: 1_000_000)
/// let bare = _ExecutorBookkeepingCost.bareHeap(jobs: 1_000_000)
/// print("bookkeeping: \(Double(measured - bare) / 1e6) ns per job")
/// ```
public enum _ExecutorBookkeepingCost {
    /// Nanoseconds for `jobs` jobs through the executor's queue, one waiting
    /// at a time behind the one running: an enqueue (after a clock read),
    /// then the runner's step that ends the running job and starts it (after
    /// another), as the executor makes them under its lock.
    public static func monitoredQueue(jobs: Int) -> UInt64 {
        var queue = MonitoredQueueStateMachine<Int, Int>()
        var sink = 0
        let start = MonotonicClock.now
        for job in 0..<jobs {
            _ = queue.enqueue(job, priority: 0x15, now: MonotonicClock.now)
            if case .run(let next) = queue.next(band: 2, now: MonotonicClock.now, finished: job > 0, thread: 1) {
                sink &+= next
            }
        }
        let elapsed = MonotonicClock.now - start
        return sink == -1 ? 0 : elapsed
    }

    /// Nanoseconds for `count` reads of the executor's clock
    /// (`clock_gettime(CLOCK_MONOTONIC)`), two of which a job takes.
    public static func clockReads(_ count: Int) -> UInt64 {
        var sink: UInt64 = 0
        let start = MonotonicClock.now
        for _ in 0..<count { sink &+= MonotonicClock.now }
        let elapsed = MonotonicClock.now - start
        return sink == 1 ? 0 : elapsed
    }

    /// Nanoseconds for the same pushes and pops on a bare ``JobHeap``.
    public static func bareHeap(jobs: Int) -> UInt64 {
        var heap = JobHeap<Int>()
        var sink = 0
        let start = MonotonicClock.now
        for job in 0..<jobs {
            heap.push(.init(job: job, priority: 0x15, busyAtEnqueue: 0, order: UInt64(job)))
            sink &+= heap.pop()?.job ?? 0
        }
        let elapsed = MonotonicClock.now - start
        return sink == -1 ? 0 : elapsed
    }
}
