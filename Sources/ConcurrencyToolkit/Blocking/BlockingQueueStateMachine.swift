/// The queue behind ``BlockingExecutor`` as a pure value: which jobs wait in
/// the FIFO, which lanes are idle or busy, whether it is shut down, and the
/// counters. Events in, actions out; no locks, no threads, no side effects,
/// so every transition is unit-tested on its own.
///
/// `BlockingExecutor` keeps it in a `Lock`, calls one method per event and
/// performs the returned action (start a lane, resume a waiter) after
/// unlocking.
///
/// Invariant: while any lane is idle the FIFO is empty (a lane only goes idle
/// when there is nothing to take, and a submission takes an idle lane first).
///
/// The FIFO is a dictionary keyed by consecutive tickets: a cancelled job is
/// removed in O(1) and leaves no entry behind; taking the next job skips the
/// tickets of removed jobs, each at most once.
struct BlockingQueueStateMachine<Job, Waiter> {
    private var queued: [UInt64: Job] = [:]
    private var nextTicket: UInt64 = 0
    private var nextToStart: UInt64 = 0
    private var idleLanes: [Int]
    private var busyLanes = 0
    private var shutdownWaiters: [Waiter] = []
    /// When a lane last ran out of work (``MonotonicClock``).
    private var lastIdleAt: UInt64 = 0
    private(set) var isShutDown = false
    private var counters = BlockingExecutor.Metrics()
    /// The lane spinning for a hand-off, if any (neither idle nor busy).
    private var spinningLane: Int?
    /// A job handed to the spinning lane, not yet taken by it.
    private var handedOff: (lane: Int, job: Job)?
    /// How long a lane that ran out of work spins for the next job (``SpinWindow``).
    private(set) var laneSpin: SpinWindow
    /// How long a caller that started or handed over its job polls for the
    /// result before its task suspends (``SpinWindow``). Learned from how
    /// long jobs take from submission to their end.
    private(set) var callerSpin: SpinWindow

    /// Both windows default to none; the executor makes them adaptive.
    init(width: Int, laneSpin: SpinWindow = SpinWindow(isEnabled: false), callerSpin: SpinWindow = SpinWindow(isEnabled: false)) {
        // Reversed so lane 0 is taken first: the lane used last stays warm.
        idleLanes = Array((0..<width).reversed())
        self.laneSpin = laneSpin
        self.callerSpin = callerSpin
    }

    /// Replaces both windows (tests, and executors made to measure without
    /// spinning). Safe at any time: a lane spinning under the old window ends
    /// its spin through ``spinEnded(_:waited:)`` as before.
    mutating func useSpin(lane: SpinWindow, caller: SpinWindow) {
        laneSpin = lane
        callerSpin = caller
    }

    /// How long a caller whose job just started or was handed over polls for
    /// its result before suspending (nanoseconds, 0: not at all).
    var callerSpinBudget: UInt64 { callerSpin.window }

    /// `runnable` threads were runnable on the machine (``RunQueue``) at
    /// `now`, the observer among them: both windows learn whether a core is
    /// free for a spin. One lane of this executor is its own, not a rival:
    /// one that spins, runs a job, or went idle less than
    /// ``SpinWindow/longest`` ago (its thread is still on its way back to
    /// Dispatch; on an idle machine that lane made every reading look busy).
    mutating func observeRunQueue(runnable: Int, now: UInt64) {
        let laneIsRunnable = spinningLane != nil || busyLanes > 0 || now &- lastIdleAt < SpinWindow.longest
        let ours = 1 + (laneIsRunnable ? 1 : 0)
        let others = max(0, runnable - ours)
        laneSpin.observe(otherRunnableThreads: others)
        callerSpin.observe(otherRunnableThreads: others)
    }

    enum SubmitAction: Equatable {
        /// Give the job to this idle lane now.
        case start(lane: Int)
        /// The job waits in the FIFO under this ticket (needed to cancel it).
        case enqueued(ticket: UInt64)
        /// The caller was cancelled before the job could be queued: fail it
        /// with `CancellationError`.
        case rejectCancelled
        /// The executor is shut down: fail the job with the shutdown error.
        case rejectShutDown
        /// The job was handed to this spinning lane, which picks it up
        /// without a wake-up: signal it (see `BlockingExecutor.submit`).
        case handOff(lane: Int)
    }

    /// `now` is when the job was submitted, on ``MonotonicClock``: it
    /// teaches the spin how soon jobs follow one another.
    mutating func submit(_ job: Job, isCancelled: Bool, now: UInt64 = 0) -> SubmitAction {
        if isShutDown {
            counters.rejected += 1
            return .rejectShutDown
        }
        counters.submitted += 1
        if isCancelled {
            counters.cancelled += 1
            return .rejectCancelled
        }
        if let lane = spinningLane {
            spinningLane = nil
            handedOff = (lane, job)
            markBusy()
            return .handOff(lane: lane)
        }
        if let lane = idleLanes.popLast() {
            laneSpin.learn(gap: now &- lastIdleAt)
            markBusy()
            return .start(lane: lane)
        }
        let ticket = nextTicket
        nextTicket += 1
        queued[ticket] = job
        return .enqueued(ticket: ticket)
    }

    /// Removes a queued job whose caller was cancelled. Returns it if it was
    /// still queued (the caller must then be failed with `CancellationError`);
    /// `nil` if a lane has it or it is gone already.
    mutating func cancel(ticket: UInt64) -> Job? {
        guard let job = queued.removeValue(forKey: ticket) else { return nil }
        counters.cancelled += 1
        if queued.isEmpty { nextToStart = nextTicket }
        return job
    }

    enum NextAction {
        /// Run this job on the same lane.
        case run(Job)
        /// The lane is idle now; resume these shutdown waiters (non-empty
        /// only when the last busy lane went idle after `shutdown`).
        case idle(resumeWaiters: [Waiter])
        /// Spin for up to this many nanoseconds waiting for a hand-off, then
        /// call ``spinEnded(_:waited:)``.
        case spin(nanoseconds: UInt64)
    }

    /// `now` is when the lane finished, on ``MonotonicClock``;
    /// `submittedAt`, when the work it finished was submitted, if a `run`
    /// caller waits for it (it teaches the caller's window how long jobs take).
    mutating func laneFinished(
        _ lane: Int, _ outcome: BlockingJobOutcome, now: UInt64 = 0, submittedAt: UInt64? = nil
    ) -> NextAction {
        record(outcome)
        if let submittedAt { callerSpin.learn(gap: now &- submittedAt) }
        if let job = takeNext() { return .run(job) }
        busyLanes -= 1
        lastIdleAt = now
        if !isShutDown, spinningLane == nil, handedOff == nil, laneSpin.window > 0 {
            spinningLane = lane
            return .spin(nanoseconds: laneSpin.window)
        }
        return goIdle(lane)
    }

    /// The lane's spin is over: it saw the hand-off signal, or `waited`
    /// nanoseconds passed. Runs the job handed to it, if any; else the lane
    /// goes idle (and a later submission starts it, as without spinning).
    mutating func spinEnded(_ lane: Int, waited: UInt64) -> NextAction {
        if let handOff = handedOff, handOff.lane == lane {
            handedOff = nil
            laneSpin.caught(after: waited)
            return .run(handOff.job)
        }
        precondition(spinningLane == lane, "a lane ended a spin it was not in")
        spinningLane = nil
        return goIdle(lane)
    }

    private mutating func goIdle(_ lane: Int) -> NextAction {
        idleLanes.append(lane)
        guard isShutDown, busyLanes == 0 else { return .idle(resumeWaiters: []) }
        defer { shutdownWaiters = [] }
        return .idle(resumeWaiters: shutdownWaiters)
    }

    struct ShutdownAction {
        /// The jobs that were queued, in FIFO order: fail them (they never ran).
        var drained: [Job]
        /// No lane is busy: resume the waiter now instead of keeping it.
        var resumeNow: Bool
    }

    /// Stops taking jobs. Idempotent: a second call drains nothing and waits
    /// like the first.
    mutating func shutdown(waiter: Waiter) -> ShutdownAction {
        isShutDown = true
        let drained = queued.sorted { $0.key < $1.key }.map(\.value)
        counters.rejected += drained.count
        queued = [:]
        nextToStart = nextTicket
        if busyLanes == 0 { return ShutdownAction(drained: drained, resumeNow: true) }
        shutdownWaiters.append(waiter)
        return ShutdownAction(drained: drained, resumeNow: false)
    }

    var metrics: BlockingExecutor.Metrics {
        var snapshot = counters
        snapshot.queued = queued.count
        snapshot.running = busyLanes
        return snapshot
    }

    /// Tickets that are still stored (for tests: must be 0 when nothing is queued).
    var storedTicketCount: Int { queued.count }

    private mutating func takeNext() -> Job? {
        while nextToStart < nextTicket {
            let ticket = nextToStart
            nextToStart += 1
            if let job = queued.removeValue(forKey: ticket) { return job }
        }
        return nil
    }

    private mutating func markBusy() {
        busyLanes += 1
        counters.peakRunning = max(counters.peakRunning, busyLanes)
    }

    private mutating func record(_ outcome: BlockingJobOutcome) {
        switch outcome {
        case .completed(let wait):
            counters.completed += 1
            recordWait(wait)
        case .failed(let wait):
            counters.failed += 1
            recordWait(wait)
        case .cancelled(let wait):
            counters.cancelled += 1
            recordWait(wait)
        }
    }

    private mutating func recordWait(_ wait: Duration) {
        counters.queueWaitTotal += wait
        counters.queueWaitMax = max(counters.queueWaitMax, wait)
    }
}

/// How a lane's job ended. An executor slice (a task running under a
/// task-executor preference) always counts as completed.
enum BlockingJobOutcome: Equatable {
    case completed(wait: Duration)
    case failed(wait: Duration)
    /// Cancelled after it left the FIFO but before its body ran.
    case cancelled(wait: Duration)
}
