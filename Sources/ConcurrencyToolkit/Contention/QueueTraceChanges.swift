/// What the trace needs of a ``MonitoredQueueStateMachine``'s last changes, kept with
/// the queue under the executor's lock and copied out with a transition
/// while a trace records: the values the `actorJob…` trace events carry,
/// and the time of each change, stamped strictly increasing in lock order.
/// (The clock is read before the lock, so two threads' readings may reach
/// it in the other order; a stamp is the reading, or one nanosecond after
/// the previous stamp. The trace sorts an actor's changes by these times,
/// so its queue depths follow in the order the queue went through them.)
///
/// A few stores per change whether or not a trace records; the events are
/// made only while one does.
struct QueueTraceChanges {
    private var lastStamp: UInt64 = 0
    /// The last enqueue: when, and the jobs waiting after it.
    private(set) var queuedAt: UInt64 = 0
    private(set) var queuedDepth = 0
    /// The last job that returned: when, and how long it ran.
    private(set) var finishedAt: UInt64 = 0
    private(set) var ran: UInt64 = 0
    /// The last job started: when, how long it waited, and the jobs still waiting.
    private(set) var startedAt: UInt64 = 0
    private(set) var waited: UInt64 = 0
    private(set) var startedDepth = 0

    mutating func queued(now: UInt64, depth: Int) {
        queuedAt = stamp(now)
        queuedDepth = depth
    }

    mutating func finished(now: UInt64, ran: UInt64) {
        finishedAt = stamp(now)
        self.ran = ran
    }

    mutating func started(now: UInt64, waited: UInt64, depth: Int) {
        startedAt = stamp(now)
        self.waited = waited
        startedDepth = depth
    }

    private mutating func stamp(_ now: UInt64) -> UInt64 {
        lastStamp = max(now, lastStamp &+ 1)
        return lastStamp
    }
}
