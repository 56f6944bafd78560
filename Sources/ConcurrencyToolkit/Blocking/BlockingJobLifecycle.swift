/// The life of one `run` job as seen by its context, as a pure value:
/// whether its caller was cancelled, whether the body is running, and the
/// interrupt actions to call on cancellation.
///
/// ```
/// waiting ──start──▶ running ──finish──▶ finished
///    │                  │
///  cancel             cancel: hand back the interrupt actions (run them once)
///    ▼
/// start refuses: the body never runs, the caller gets CancellationError
/// ```
///
/// An interrupt action registered after cancellation is handed back to run at
/// once; one registered after `finish` is dropped, so no action ever starts
/// after the body returned (closing a descriptor number that may be reused).
struct BlockingJobLifecycle<Action> {
    enum Phase: Equatable { case waiting, running, finished }

    private(set) var phase = Phase.waiting
    private(set) var isCancelled = false
    private var actions: [Action] = []

    /// Marks the caller cancelled. Returns the interrupt actions to run now
    /// (only when the body is running; each action is handed out once).
    mutating func cancel() -> [Action] {
        guard !isCancelled else { return [] }
        isCancelled = true
        guard phase == .running else { return [] }
        defer { actions = [] }
        return actions
    }

    /// A lane is about to run the body. `false`: the caller is already
    /// cancelled, so the body must not run.
    mutating func start() -> Bool {
        precondition(phase == .waiting, "a blocking job was started twice")
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
        case .waiting, .finished: return nil
        }
    }

    /// The body returned: from now on cancellation runs nothing.
    mutating func finish() {
        phase = .finished
        actions = []
    }
}
