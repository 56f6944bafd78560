import Dispatch

/// The one timer behind every `withSafeThrowingContinuation(timeout:)`: a
/// deadline min-heap serviced by a single `DispatchSourceTimer`. A timeout
/// costs one heap entry (a deadline and a pointer), never a thread or a task.
///
/// The heap does not own the continuations (an owning reference would hide
/// a leak): a timed box removes its entry in its `deinit`, under this
/// scheduler's lock, so every pointer in the heap is to a live box (at worst
/// one whose `deinit` is waiting for the lock). The timer claims a due box with
/// its state CAS under the lock and resumes the waiter after unlocking.
@usableFromInline
final class TimeoutScheduler: @unchecked Sendable {
    // @unchecked: `timer` is only armed under `heap`'s lock (so arm calls
    // cannot reorder) and its handler runs on the private serial `queue`.
    @usableFromInline static let shared = TimeoutScheduler()

    struct Waiter: TimeoutHeapElement, @unchecked Sendable {
        // @unchecked: valid while in the heap, see above; touched without a retain.
        let box: Unmanaged<InterruptibleStorage>
        /// The timeout it was given, for the error's message.
        let timeout: Duration

        func heapIndexDidChange(to index: Int?) {
            box._withUnsafeGuaranteedRef { $0.timerIndex = index ?? -1 }
        }
    }

    private let heap = Lock(TimeoutHeap<Waiter>())
    private let queue = DispatchQueue(label: "ConcurrencyToolkit.SafeContinuation.timeouts")
    private let timer: any DispatchSourceTimer

    /// Timer slack: lets the kernel batch wake-ups; well inside the 10 ms promise.
    static let leeway = DispatchTimeInterval.microseconds(500)

    private init() {
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.setEventHandler { [unowned self] in self.fire() }
        timer.activate()
    }

    /// Continuations waiting for a deadline (for tests and diagnostics).
    var queuedCount: Int { heap.withLock { $0.count } }

    /// Arranges for `continuation` to time out `timeout` from now, unless it
    /// is finished or freed first.
    @usableFromInline
    func schedule(_ box: InterruptibleStorage, after timeout: Duration) {
        let deadline = MonotonicClock.now &+ MonotonicClock.nanoseconds(timeout)
        heap.withLock { heap in
            // Arming under the lock keeps arm calls in the order the heap decided them.
            if case .arm(let at) = heap.insert(Waiter(box: .passUnretained(box), timeout: timeout), deadline: deadline) { arm(at) }
        }
    }

    /// Called from a timed box's `deinit`: takes its entry out, if still there.
    /// `index` reads the box's position; it is called under the lock that guards it.
    func remove(at index: () -> Int) {
        heap.withLock { heap in
            let index = index()
            if index >= 0 { heap.remove(at: index) }
        }
    }

    private func fire() {
        let resumptions = heap.withLock { heap in
            let (due, next) = heap.timerFired(now: MonotonicClock.now)
            if case .arm(let at) = next { arm(at) }
            // Claim under the lock, where no due box can be freed; resume after it.
            return due.compactMap { waiter in
                waiter.box._withUnsafeGuaranteedRef { $0.timeOut(after: waiter.timeout) }
            }
        }
        for resume in resumptions { resume() }
    }

    /// Arms the timer relative to now, so the heap's clock and Dispatch's clock
    /// need not be the same.
    private func arm(_ deadline: UInt64) {
        let now = MonotonicClock.now
        let delay = deadline > now ? deadline - now : 0
        timer.schedule(
            deadline: .now() + .nanoseconds(Int(clamping: delay)), repeating: .never, leeway: Self.leeway)
    }
}
