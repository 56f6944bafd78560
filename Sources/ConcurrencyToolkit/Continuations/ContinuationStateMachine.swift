/// The life of one continuation, as a pure value: events in, outcome out.
///
/// `ContinuationStorage` keeps it in one atomic byte and moves it with a single
/// compare-and-exchange, so this type is the whole state machine and can be
/// unit-tested without threads.
///
/// A plain box starts `pending`. A box for `onCancel:` starts `unarmed`: it is
/// made before the task's cancellation handler is installed, so the handler
/// has it from the start, and becomes `pending` once the continuation exists.
/// A cancellation in between only marks it; arming then finishes it.
@usableFromInline
enum ContinuationStateMachine: UInt8, Sendable, CaseIterable {
    case pending
    case resumed
    case timedOut
    case cancelled
    case leaked
    /// Made before its continuation (see above); nobody can resume it yet.
    case unarmed
    /// Cancelled while unarmed: arming finishes it with `CancellationError`.
    case cancelledBeforeArm

    /// The state held in a box's atomic byte, which only ever stores raw
    /// values of this type. (The synthesized `init?(rawValue:)` was an
    /// out-of-line call in every box's `deinit`.)
    @inlinable @inline(__always)
    init(stored: UInt8) {
        assert(stored <= ContinuationStateMachine.cancelledBeforeArm.rawValue, "not a ContinuationStateMachine: \(stored)")
        self = unsafeBitCast(stored, to: ContinuationStateMachine.self)
    }

    /// What happens when someone tries to move a continuation in this state.
    @usableFromInline
    enum Outcome: Equatable, Sendable {
        /// This caller won: move to the new state and resume the waiter.
        case finish(ContinuationStateMachine)
        /// Move to the new state; there is no waiter to resume yet (arming,
        /// or a cancellation that arming will finish).
        case move(ContinuationStateMachine)
        /// Already resumed by user code: report `.resumedMoreThanOnce`.
        case reportExtraResume
        /// Already finished by the toolkit (timeout, cancellation, leak):
        /// the caller is late, which is expected; drop it silently.
        case dropLate
        /// Nothing to do (a timeout or cancellation after the waiter was resumed).
        case ignore
    }

    @usableFromInline
    enum Event: Sendable {
        case resume, timeout, cancel, lastCopyDropped
        /// The continuation now exists (boxes made `unarmed` only).
        case arm
    }

    @inlinable
    func on(_ event: Event) -> Outcome {
        switch (self, event) {
        case (.pending, .resume): .finish(.resumed)
        case (.pending, .timeout): .finish(.timedOut)
        case (.pending, .cancel): .finish(.cancelled)
        case (.pending, .lastCopyDropped): .finish(.leaked)
        case (.resumed, .resume): .reportExtraResume
        case (.timedOut, .resume), (.cancelled, .resume), (.leaked, .resume): .dropLate
        case (.unarmed, .arm): .move(.pending)
        case (.unarmed, .cancel): .move(.cancelledBeforeArm)
        case (.cancelledBeforeArm, .arm): .finish(.cancelled)
        // An unarmed box has no continuation to resume or time out, and its
        // maker holds it until arming; these cannot happen, and are ignored.
        case (.unarmed, _), (.cancelledBeforeArm, _): .ignore
        // Arming happens once, on an unarmed box.
        case (_, .arm): .ignore
        case (_, .timeout), (_, .cancel), (_, .lastCopyDropped): .ignore
        }
    }
}
