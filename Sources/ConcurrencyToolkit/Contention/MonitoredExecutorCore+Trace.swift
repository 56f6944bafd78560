/// A monitored actor in the trace: its jobs on a row of their own, its queue
/// depth and running jobs as a counter track (`TraceEvent.Kind.actorJob…`).
///
/// The recording is the one running where the executor was created, in the
/// task that created it (as a ``ThrottledProgress`` captures it): an
/// actor's jobs come from every task that calls it, and the runtime says
/// nothing of the caller when it enqueues a job. While nothing records
/// anywhere, the executor pays a load and a branch per enqueue and per job,
/// and makes no event; an executor created outside any recording checks a
/// constant. After its recording ended, its events are late ones: dropped
/// and counted, as the recorder's other late events are (the executor holds
/// the recorder weakly: once the recording's owner lets it go, none are made).
///
/// ```swift
/// // snippet: skip (internal: the core's enqueue and drain)
/// let (action, changes) = state.withLock { ($0.enqueue(job, priority: p, now: now), $0.traceChanges) }
/// traceQueued(changes)
/// ```
extension MonitoredExecutorCore {
    /// Whether to copy the trace's changes out of the lock: a recorder was
    /// captured and some recording runs (the recorder drops late events).
    @inline(__always)
    var isTracing: Bool { isTraced && Instrumentation.isRecordingAnywhere }

    /// Records an enqueue.
    func traceQueued(_ changes: QueueTraceChanges) {
        recorder?.append(.actorJobQueued(actor: label, depth: changes.queuedDepth), id: 0, at: changes.queuedAt)
    }

    /// Records a runner's step: the job that returned (`finishedID`, its id
    /// in the trace, 0 when it started before the recording; nil when the
    /// runner had not run one), then the job it starts, if `starts` and a
    /// trace records. Returns the started job's id, or 0 when none is traced.
    func traceStep(_ changes: QueueTraceChanges, finishedID: UInt64?, starts: Bool) -> UInt64 {
        guard let recorder else { return 0 }
        if let finishedID {
            recorder.append(.actorJobFinished(actor: label, ran: changes.ran), id: finishedID, at: changes.finishedAt)
        }
        guard starts, Instrumentation.isRecordingAnywhere else { return 0 }
        let id = Instrumentation.makeID()
        recorder.append(
            .actorJobStarted(actor: label, depth: changes.startedDepth, waited: changes.waited),
            id: id, at: changes.startedAt)
        return id
    }
}
