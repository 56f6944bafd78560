/// Who got there first: the continuation being set up, the task's
/// cancellation, or the continuation going away. A pure value; the
/// `CancellationSlot` moves it under its lock.
///
/// ```
/// waiting ──arm──▶ armed ──cancel──▶ cancelled   (cancel finishes the continuation)
///    │               └──detach──▶ detached       (the box was freed; cancel does nothing)
///    └──cancel──▶ cancelled ──arm──▶ cancelled   (arm finishes it; the body never runs)
/// ```
enum CancellationSlotState: Sendable, Equatable {
    case waiting
    case armed
    case cancelled
    case detached

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
        /// Interrupt the armed continuation; call `onCancel` if that resumed the waiter.
        case interruptArmed
        /// Nothing to do: already cancelled, or the continuation is gone.
        case ignore
    }

    mutating func arm() -> ArmOutcome {
        switch self {
        case .waiting:
            self = .armed
            return .proceed
        case .cancelled:
            return .finishCancelled
        case .armed, .detached:
            preconditionFailure("a cancellation slot is armed once, before its box can go away")
        }
    }

    mutating func cancel() -> CancelOutcome {
        switch self {
        case .waiting:
            self = .cancelled
            return .callOnCancel
        case .armed:
            self = .cancelled
            return .interruptArmed
        case .cancelled, .detached:
            return .ignore
        }
    }

    /// The box is being freed; the slot must forget it.
    mutating func detach() {
        if self == .armed { self = .detached }
    }
}
