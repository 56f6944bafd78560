import Dispatch

extension BlockingExecutor {
    /// Hands `first` to an idle lane. The lane then drains the FIFO until it
    /// is empty, so a busy executor pays one Dispatch hop per burst, not per job.
    /// The burst runs at the QoS of `first`'s priority: Dispatch cannot change
    /// the QoS of a block that is already running.
    func startLane(_ lane: Int, with first: BlockingWork) {
        let qosClass = first.qosClass
        if qosClass == .default {
            // No QoS argument: Dispatch then skips wrapping the block in a
            // DispatchWorkItem (an allocation per hop) for the common case.
            lanes[lane].async { self.drain(lane: lane, startingWith: first) }
        } else {
            let qos = DispatchQoS(qosClass: qosClass, relativePriority: 0)
            lanes[lane].async(qos: qos) { self.drain(lane: lane, startingWith: first) }
        }
    }

    private func drain(lane: Int, startingWith first: BlockingWork) {
        var work = first
        while true {
            let outcome = execute(work)
            let next = state.withLock { $0.laneFinished(lane, outcome) }
            // Counted first, then resumed: a caller never sees metrics that miss its own job.
            if case .job(let job) = work { job.resumeCaller() }
            switch next {
            case .run(let next):
                work = next
            case .idle(let waiters):
                for waiter in waiters { waiter.resume() }
                return
            }
        }
    }

    private func execute(_ work: BlockingWork) -> BlockingJobOutcome {
        switch work {
        case .job(let job):
            return job.execute()
        case .slice(let slice, let submittedAt):
            let wait = ContinuousClock.now - submittedAt
            slice.runSynchronously(on: asUnownedTaskExecutor())
            return .completed(wait: wait)
        }
    }

    /// Submits `work` and starts a lane if the state machine says so, after
    /// unlocking. Returns the action so the caller can fail a rejected job.
    func submit(_ work: BlockingWork) -> BlockingQueueState<BlockingWork, SafeContinuation<Void, Never>>.SubmitAction {
        let action = state.withLock { state in
            guard case .job(let job) = work else { return state.submit(work, isCancelled: false) }
            // Read under the state lock: `cancel` sets the flag before taking
            // this lock, so either we see it here or it finds the ticket.
            let action = state.submit(work, isCancelled: job.isCancelled)
            if case .enqueued(let ticket) = action { job.ticket = ticket }
            return action
        }
        if case .start(let lane) = action { startLane(lane, with: work) }
        return action
    }
}

extension BlockingWork {
    var qosClass: DispatchQoS.QoSClass {
        switch self {
        case .job(let job): DispatchQoS.QoSClass(job.priority)
        case .slice(let slice, _): DispatchQoS.QoSClass(TaskPriority(slice.priority))
        }
    }
}
