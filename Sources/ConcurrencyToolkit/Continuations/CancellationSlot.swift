import Synchronization

/// Connects a task's cancellation handler to a continuation that does not
/// exist yet when the handler is installed (the runtime runs the handler at
/// once if the task is already cancelled). Holds the continuation weakly, so
/// an armed handler never hides a leak.
final class CancellationSlot: @unchecked Sendable {
    // @unchecked: `continuation` is written once, before the releasing CAS that
    // publishes `.armed`, and read only after an acquiring CAS that saw `.armed`.
    private let state = Atomic<UInt8>(CancellationSlotState.waiting.rawValue)
    private weak var continuation: (any InterruptibleContinuation)?

    init() {}

    /// Called once, right after the continuation is created. `false` means the
    /// task was cancelled meanwhile and the continuation has been finished.
    func arm(_ continuation: some InterruptibleContinuation) -> Bool {
        self.continuation = continuation
        switch move({ $0.onArm() }) {
        case .proceed:
            return true
        case .finishCancelled:
            _ = continuation.cancel()
            return false
        }
    }

    /// Called from the task's cancellation handler. Returns whether `onCancel`
    /// should run: cancellation resumed (or will resume) the waiter.
    func cancel() -> Bool {
        switch move({ $0.onCancel() }) {
        case .callOnCancel: return true
        case .cancelArmed: return continuation?.cancel() ?? false
        case .ignore: return false
        }
    }

    private func move<Outcome>(_ event: (CancellationSlotState) -> (next: CancellationSlotState, outcome: Outcome))
        -> Outcome
    {
        var current = CancellationSlotState(rawValue: state.load(ordering: .acquiring))!
        while true {
            let (next, outcome) = event(current)
            let (exchanged, original) = state.compareExchange(
                expected: current.rawValue, desired: next.rawValue, ordering: .acquiringAndReleasing)
            if exchanged { return outcome }
            current = CancellationSlotState(rawValue: original)!
        }
    }
}
