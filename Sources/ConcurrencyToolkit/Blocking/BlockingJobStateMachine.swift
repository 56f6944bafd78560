/// Every cancellation rule of one blocking job, as a pure value: where the
/// job is (handed to the executor, waiting in the FIFO under a ticket,
/// running, finished), whether its caller was cancelled, and the interrupt
/// actions to run when it is. Events in, actions out; no locks, no threads.
///
/// The executor keeps one per job in a `Lock` and the FIFO in another, and
/// never takes one while holding the other: a submission and a cancellation
/// that race meet here instead. Whoever takes the job out of the FIFO (a lane,
/// a withdrawal, shutdown) is the one that resumes its caller, so it is
/// resumed once.
///
/// An interrupt action registered after cancellation is handed back to run at
/// once; one registered after `finish` is dropped, so no action ever starts
/// after the body returned (closing a descriptor number that may be reused).
struct BlockingJobStateMachine<Action> {
    enum Phase: Equatable {
        /// Given to the executor; not yet known to wait under a ticket.
        case submitted
        /// Waiting in the FIFO; `ticket` withdraws it.
        case queued(ticket: UInt64)
        case running
        case finished
    }

    /// What a cancellation asks the executor to do, after unlocking.
    enum Cancellation {
        /// Nothing now: not yet queued (the submission withdraws it), already
        /// cancelled, or finished.
        case nothing
        /// Remove the job waiting under `ticket` and fail its caller; if a
        /// lane took it meanwhile, its `start` refuses.
        case withdraw(ticket: UInt64)
        /// The body is running: run these interrupt actions (each is handed out once).
        case interrupt([Action])
    }

    private(set) var phase = Phase.submitted
    private(set) var isCancelled = false
    private var actions: [Action] = []

    /// Marks the caller cancelled.
    mutating func cancel() -> Cancellation {
        guard !isCancelled else { return .nothing }
        isCancelled = true
        switch phase {
        case .queued(let ticket):
            return .withdraw(ticket: ticket)
        case .running:
            defer { actions = [] }
            return .interrupt(actions)
        case .submitted, .finished:
            return .nothing
        }
    }

    /// The FIFO gave the job `ticket`. Returns `true` when the caller was
    /// cancelled before the ticket was recorded here: that canceller found
    /// no ticket, so the submitter must withdraw the job itself. Ignored when
    /// a lane started the job first.
    mutating func enqueued(ticket: UInt64) -> Bool {
        guard phase == .submitted else { return false }
        if isCancelled { return true }
        phase = .queued(ticket: ticket)
        return false
    }

    /// A lane is about to run the body. `false`: the caller is already
    /// cancelled, so the body must not run.
    mutating func start() -> Bool {
        switch phase {
        case .submitted, .queued: break
        case .running, .finished: preconditionFailure("a blocking job was started twice")
        }
        guard !isCancelled else {
            phase = .finished
            return false
        }
        phase = .running
        return true
    }

    /// Registers an interrupt action. Returns it when it must run now
    /// (the caller is already cancelled); `nil` when it was stored or dropped.
    mutating func register(_ action: Action) -> Action? {
        switch phase {
        case .running where isCancelled: return action
        case .running: actions.append(action); return nil
        case .submitted, .queued, .finished: return nil
        }
    }

    /// The body returned: from now on cancellation runs nothing.
    mutating func finish() {
        phase = .finished
        actions = []
    }
}

extension BlockingJobStateMachine.Cancellation: Equatable where Action: Equatable {}
