import Synchronization

/// Connects a task's cancellation handler to a continuation that does not
/// exist yet when the handler is installed (the runtime runs the handler at
/// once if the task is already cancelled).
///
/// Like the timeout scheduler it does not own the box: the box detaches
/// itself in its `deinit` under this slot's lock, so the pointer is valid
/// whenever the lock is held and the state is `.armed`.
@usableFromInline
final class CancellationSlot: @unchecked Sendable {
    // @unchecked: `box` is only used under `guarded`'s lock, without a retain
    // (see InterruptibleBox for why).
    private struct Guarded {
        var state = CancellationSlotState.waiting
        var box: Unmanaged<InterruptibleBox>?
    }

    private let guarded = SanitizedMutex(Guarded())

    @usableFromInline init() {}

    /// Called once, right after the continuation is created. `false` means the
    /// task was cancelled meanwhile and the continuation has been finished.
    @usableFromInline
    func arm(_ box: InterruptibleBox) -> Bool {
        let outcome = guarded.withLock { guarded in
            guarded.box = .passUnretained(box)
            return guarded.state.arm()
        }
        switch outcome {
        case .proceed:
            return true
        case .finishCancelled:
            // The caller holds the box, so it is alive without the lock.
            box.interrupt(.cancel)?()
            return false
        }
    }

    /// Called from the task's cancellation handler. Returns whether `onCancel`
    /// should run: cancellation resumed (or is about to resume) the waiter.
    @usableFromInline
    func cancel() -> Bool {
        let (outcome, resume) = guarded.withLock { guarded -> (CancellationSlotState.CancelOutcome, (@Sendable () -> Void)?) in
            let outcome = guarded.state.cancel()
            guard outcome == .interruptArmed, let box = guarded.box else { return (outcome, nil) }
            return (outcome, box._withUnsafeGuaranteedRef { $0.interrupt(.cancel) })
        }
        switch outcome {
        case .callOnCancel: return true
        case .interruptArmed:
            guard let resume else { return false }
            resume()
            return true
        case .ignore: return false
        }
    }

    /// Called from the box's `deinit`.
    func detach() {
        guarded.withLock { guarded in
            guarded.state.detach()
            guarded.box = nil
        }
    }
}
