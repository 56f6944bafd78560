import Dispatch
import Synchronization

/// The one timer behind every `withSafeThrowingContinuation(timeout:)`: a
/// deadline min-heap serviced by a single `DispatchSourceTimer`. A timeout
/// costs one heap entry (a deadline and a weak reference), never a thread or a task.
///
/// Entries hold the continuation weakly so a pending timeout never hides a
/// leak. Entries of continuations that finished early are not searched for on
/// resume (that would put the scheduler's lock on every resume); they are
/// discarded when due, or all at once when they outnumber the live ones.
final class TimeoutScheduler: @unchecked Sendable {
    // @unchecked: `timer` is only armed under `heap`'s lock (so arm calls
    // cannot reorder) and its handler runs on the private serial `queue`.
    static let shared = TimeoutScheduler()

    struct Waiter: @unchecked Sendable {
        // @unchecked: a weak reference is read and cleared atomically by the runtime.
        weak var continuation: (any InterruptibleContinuation)?
    }

    private let heap = Mutex(TimeoutHeap<Waiter>())
    /// Continuations that finished while their entry was still queued: a hint
    /// for when compaction pays off, not an exact count.
    private let finishedSinceCompaction = Atomic<Int>(0)
    private let queue = DispatchQueue(label: "ConcurrencyToolkit.SafeContinuation.timeouts")
    private let timer: any DispatchSourceTimer

    /// Timer slack: lets the kernel batch wake-ups; well inside the 10 ms promise.
    static let leeway = DispatchTimeInterval.microseconds(500)
    /// Below this many entries compaction is not worth a pass.
    static let compactionThreshold = 1024

    private init() {
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [unowned self] in self.fire() }
        timer.activate()
    }

    /// Entries in the heap, live or not yet discarded (for tests and diagnostics).
    var queuedCount: Int { heap.withLock { $0.count } }

    /// Arranges for `continuation.timeOut()` to be called `timeout` from now.
    func schedule(_ continuation: some InterruptibleContinuation, after timeout: Duration) {
        let deadline = Self.now() &+ Self.nanoseconds(timeout)
        let waiter = Waiter(continuation: continuation)
        let finished = finishedSinceCompaction.load(ordering: .relaxed)
        var loaded: [any InterruptibleContinuation] = []
        heap.withLock { heap in
            if heap.count >= Self.compactionThreshold, finished * 2 > heap.count {
                finishedSinceCompaction.store(0, ordering: .relaxed)
                heap.removeAll { waiter in
                    guard let continuation = waiter.continuation else { return true }
                    // Keep the strong reference until after unlock: dropping the
                    // last one here would run a leak report under the lock.
                    loaded.append(continuation)
                    return continuation.isFinished
                }
            }
            // Arming under the lock keeps arm calls in the order the heap decided them.
            if case .arm(let at) = heap.insert(waiter, deadline: deadline) { arm(at) }
        }
        _ = consume loaded
    }

    /// Called by a timed continuation when it finishes by any route.
    func noteFinished() {
        finishedSinceCompaction.add(1, ordering: .relaxed)
    }

    private func fire() {
        let due = heap.withLock { heap in
            let (due, next) = heap.timerFired(now: Self.now())
            if case .arm(let at) = next { arm(at) }
            return due
        }
        // Outside the lock: timing out resumes waiters.
        for waiter in due {
            waiter.continuation?.timeOut()
        }
    }

    private func arm(_ deadline: UInt64) {
        timer.schedule(deadline: DispatchTime(uptimeNanoseconds: deadline), repeating: .never, leeway: Self.leeway)
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        let (wholeNanos, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return UInt64.max / 2 }
        return min(wholeNanos &+ UInt64(attoseconds / 1_000_000_000), UInt64.max / 2)
    }
}
