/// How a continuation wait reaches a trace recording: the wiring of
/// `ContinuationStorage` to ``Instrumentation``, kept apart from the box so its
/// hot path stays readable.
extension Instrumentation {
    /// Called by every box's (inlinable) `init`, in the waiting task: one
    /// relaxed load and a branch when no recording is active anywhere.
    @usableFromInline
    static func beginWait(at site: CallSite) -> TraceToken? {
        begin(.continuationCreated(site: site))
    }

    /// Closes the wait; called once, by the winner of the box's state CAS,
    /// before the waiter is resumed. A leak is closed by its misuse event
    /// instead (see `ContinuationStorage.reportLeak`), which carries the site.
    static func endWait(_ trace: TraceToken, as finished: ContinuationStateMachine) {
        switch finished {
        case .resumed: trace.end(.continuationResumed)
        case .timedOut: trace.end(.continuationTimedOut)
        case .cancelled: trace.end(.continuationCancelled)
        case .leaked, .pending, .unarmed, .cancelledBeforeArm: break
        }
    }
}
