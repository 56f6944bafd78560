import Synchronization

/// Process-wide counts of the ways continuations finished other than a plain
/// resume. Touched only on those rare paths; read by ``PendingContinuations/snapshot()``.
@usableFromInline
final class ContinuationCounters: Sendable {
    @usableFromInline static let shared = ContinuationCounters()

    let timedOut = Atomic<Int>(0)
    let cancelled = Atomic<Int>(0)
    let leaked = Atomic<Int>(0)
    /// Resumes that arrived after a timeout, cancellation or leak had already
    /// resumed the waiter: expected, dropped without a report, but worth seeing.
    let lateResumes = Atomic<Int>(0)

    @usableFromInline @inline(never)
    static func countLateResume() {
        shared.lateResumes.add(1, ordering: .relaxed)
    }

    @usableFromInline
    func count(_ finished: ContinuationStateMachine) {
        switch finished {
        case .timedOut: timedOut.add(1, ordering: .relaxed)
        case .cancelled: cancelled.add(1, ordering: .relaxed)
        case .leaked: leaked.add(1, ordering: .relaxed)
        case .pending, .resumed, .unarmed, .cancelledBeforeArm: break
        }
    }
}
