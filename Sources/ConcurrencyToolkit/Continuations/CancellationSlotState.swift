/// Who got there first: the continuation being set up, or the task's
/// cancellation. A pure value, moved by `CancellationSlot` with one CAS.
///
/// ```
/// waiting ──arm──▶ armed ──cancel──▶ cancelled   (cancel finishes the continuation)
///    └──cancel──▶ cancelled ──arm──▶ cancelled   (arm finishes it; the body never runs)
/// ```
enum CancellationSlotState: UInt8, Sendable {
    case waiting
    case armed
    case cancelled

    enum ArmOutcome: Equatable {
        /// Go on: run the body; a later cancellation will find the continuation.
        case proceed
        /// The task was cancelled while the continuation was being created:
        /// finish it with `CancellationError` now and do not run the body.
        case finishCancelled
    }

    enum CancelOutcome: Equatable {
        /// Nothing is armed yet; `arm` will finish the continuation. Call `onCancel`.
        case callOnCancel
        /// Cancel the armed continuation; call `onCancel` if that resumed the waiter.
        case cancelArmed
        /// Already cancelled (cannot happen: the runtime cancels once). Nothing to do.
        case ignore
    }

    func onArm() -> (next: Self, outcome: ArmOutcome) {
        switch self {
        case .waiting: (.armed, .proceed)
        case .cancelled: (.cancelled, .finishCancelled)
        case .armed: preconditionFailure("a cancellation slot is armed once")
        }
    }

    func onCancel() -> (next: Self, outcome: CancelOutcome) {
        switch self {
        case .waiting: (.cancelled, .callOnCancel)
        case .armed: (.cancelled, .cancelArmed)
        case .cancelled: (.cancelled, .ignore)
        }
    }
}
