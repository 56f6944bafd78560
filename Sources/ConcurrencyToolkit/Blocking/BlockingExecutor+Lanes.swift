import Dispatch
import Synchronization

/// The executor's storage: it holds ``BlockingQueueStateMachine`` in a lock, makes
/// one transition per event, and performs the returned action (start a
/// lane, fail a job, resume a waiter) after unlocking. It never takes a job's
/// lock while holding the state lock, nor the other way round.
extension BlockingExecutor {
    /// Hands `job` to the executor: an idle lane runs it, or it waits in the
    /// FIFO, or its caller is failed at once (cancelled, shut down).
    /// - Returns: How long the caller may poll for the result before its
    ///   task suspends (nanoseconds; 0 unless a lane has the job now).
    func submit(_ job: BlockingJob) -> UInt64 {
        // Read before the state lock, not under it: a cancellation after this
        // read either finds the ticket or is seen by `enqueued(ticket:)`.
        let isCancelled = job.isCancelled
        let (action, callerSpin) = submitUnderLock(.job(job), isCancelled: isCancelled, at: job.submittedAt)
        switch action {
        case .handOff:
            break  // a spinning lane takes it: no wake-up
        case .start(let lane):
            startLane(lane, with: .job(job))
        case .enqueued(let ticket):
            // Cancelled before the ticket was known: the canceller could not withdraw it.
            if job.lifecycle.withLock({ $0.enqueued(ticket: ticket) }) { withdraw(ticket: ticket) }
            return 0
        case .rejectCancelled:
            job.fail(CancellationError())
            return 0
        case .rejectShutDown:
            job.fail(ShutDownError(label: label, wasQueued: false))
            return 0
        }
        return callerSpin
    }

    /// Hands a task slice to the executor. `false`: it is shut down, run the slice elsewhere.
    func submit(_ slice: UnownedJob) -> Bool {
        let work = BlockingWork.slice(slice, submittedAt: MonotonicClock.now)
        switch submitUnderLock(work, isCancelled: false, at: MonotonicClock.now).action {
        case .start(let lane): startLane(lane, with: work)
        case .handOff, .enqueued, .rejectCancelled: break
        case .rejectShutDown: return false
        }
        return true
    }

    /// One submission transition; signals a spinning lane it handed the work
    /// to (a store under the lock, which the lane then takes to pick it up).
    /// Also reads the caller's spin window under the same lock, after
    /// telling both windows how busy the machine is (``RunQueue``).
    private func submitUnderLock(_ work: BlockingWork, isCancelled: Bool, at now: UInt64)
        -> (action: BlockingQueueStateMachine<BlockingWork, SafeContinuation<Void, Never>>.SubmitAction, callerSpin: UInt64)
    {
        // Read outside the lock: at most one submission in 10 ms reads the file.
        let runnable = runQueue.reading(now: now)
        return state.withLock { state in
            if let runnable { state.observeRunQueue(runnable: runnable, now: now) }
            let action = state.submit(work, isCancelled: isCancelled, now: now)
            if case .handOff(let lane) = action { handOffSignal.store(lane + 1, ordering: .releasing) }
            return (action, state.callerSpinBudget)
        }
    }

    /// Removes the job waiting under `ticket` and fails its caller with
    /// `CancellationError`; nothing if a lane took it first (its lifecycle
    /// then refuses to start it).
    func withdraw(ticket: UInt64) {
        guard case .job(let job)? = state.withLock({ $0.cancel(ticket: ticket) }) else { return }
        job.fail(CancellationError())
    }

    /// Hands `first` to an idle lane. The lane then drains the FIFO until it
    /// is empty, so a busy executor pays one Dispatch hop per burst, not per job.
    /// The burst runs at the QoS of `first`'s priority: Dispatch cannot change
    /// the QoS of a block that is already running. The thread counts as
    /// running blocking work meanwhile (``BlockingThreads``).
    private func startLane(_ lane: Int, with first: BlockingWork) {
        let qosClass = first.qosClass
        if qosClass == .default {
            // No QoS argument: Dispatch then skips wrapping the block in a
            // DispatchWorkItem (an allocation per hop) for the common case.
            lanes[lane].async { BlockingThreads.running { self.drain(lane: lane, startingWith: first) } }
        } else {
            let qos = DispatchQoS(qosClass: qosClass, relativePriority: 0)
            lanes[lane].async(qos: qos) { BlockingThreads.running { self.drain(lane: lane, startingWith: first) } }
        }
    }

    private func drain(lane: Int, startingWith first: BlockingWork) {
        var work = first
        while true {
            var next: BlockingQueueStateMachine<BlockingWork, SafeContinuation<Void, Never>>.NextAction?
            // Counted first, then resumed: a caller never sees metrics that miss its own job.
            let submittedAt: UInt64? = if case .job(let job) = work { job.submittedAt } else { nil }
            execute(work, lane: lane) { outcome in
                let now = MonotonicClock.now
                next = state.withLock { $0.laneFinished(lane, outcome, now: now, submittedAt: submittedAt) }
            }
            if case .spin(let budget)? = next { next = spin(lane: lane, nanoseconds: budget) }
            switch next {
            case .run(let following)?:
                work = following
            case .idle(let waiters)?:
                for waiter in waiters { waiter.resume() }
                return
            case .spin?, nil:
                preconditionFailure("a lane finished work without recording its outcome")
            }
        }
    }

    /// Waits up to `nanoseconds` for a job handed to `lane`, polling the
    /// signal (``SpinWindow/spin(nanoseconds:until:)``). Then ends the spin
    /// under the lock, which takes a job handed over at the last moment.
    private func spin(lane: Int, nanoseconds budget: UInt64)
        -> BlockingQueueStateMachine<BlockingWork, SafeContinuation<Void, Never>>.NextAction
    {
        let (waited, _) = SpinWindow.spin(nanoseconds: budget) {
            handOffSignal.load(ordering: .acquiring) == lane + 1
        }
        return state.withLock { state in
            let next = state.spinEnded(lane, waited: waited)
            if case .run = next { handOffSignal.store(0, ordering: .relaxed) }
            return next
        }
    }

    private func execute(_ work: BlockingWork, lane: Int, record: (BlockingJobOutcome) -> Void) {
        switch work {
        case .job(let job):
            job.execute(onLane: lane, of: label, record: record)
        case .slice(let slice, let submittedAt):
            let wait = Duration.nanoseconds(Int64(truncatingIfNeeded: MonotonicClock.now &- submittedAt))
            slice.runSynchronously(on: asUnownedTaskExecutor())
            record(.completed(wait: wait))
        }
    }
}

extension BlockingWork {
    var qosClass: DispatchQoS.QoSClass {
        switch self {
        case .job(let job): DispatchQoS.QoSClass(job.priority)
        case .slice(let slice, _): DispatchQoS.QoSClass(TaskPriority(rawValue: slice.priority.rawValue))
        }
    }
}

extension DispatchQoS.QoSClass {
    /// The quality of service a lane gets for work submitted at `priority`:
    /// the same ladder Apple platforms use between the two. (On Linux,
    /// libdispatch accepts QoS but the scheduler largely ignores it.)
    init(_ priority: TaskPriority) {
        switch priority.rawValue {
        case TaskPriority.high.rawValue...: self = .userInitiated
        case TaskPriority.medium.rawValue...: self = .default
        case TaskPriority.low.rawValue...: self = .utility
        default: self = .background
        }
    }
}
