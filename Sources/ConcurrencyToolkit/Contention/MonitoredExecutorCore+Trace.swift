/// A monitored actor in the trace: its jobs on a row of their own, its queue
/// depth and running jobs as a counter track (`TraceEvent.Kind.actorJob…`).
///
/// Which recordings: an executor created in a recording (in the task that
/// created it, as a ``ThrottledProgress`` captures it) records into that
/// one only; an executor created outside any (an app's long-lived actor)
/// records into every recording running when its events happen, as a stall
/// report does. It cannot do better: an actor's jobs come from every task
/// that calls it, and the runtime enqueues a job after the caller's task has
/// left the thread, so the caller's recording cannot be read there.
///
/// While nothing records anywhere, the executor pays a relaxed load and a
/// branch per enqueue and per job, and makes no event. After its own
/// recording ended, an executor created in one makes late events: dropped
/// and counted, as the recorder's other late events are (the executor holds
/// the recorder weakly: once the recording's owner lets it go, none are made).
extension MonitoredExecutorCore {
    /// Whether to copy the trace's changes out of the lock: some recording
    /// runs (an own recording that ended drops late events).
    @inline(__always)
    var isTracing: Bool { Instrumentation.isRecordingAnywhere }

    /// Records an enqueue.
    func traceQueued(_ changes: QueueTraceChanges) {
        record(.actorJobQueued(actor: label, depth: changes.queuedDepth), id: 0, at: changes.queuedAt)
    }

    /// Records a runner's step: the job that returned (`finishedID`, its id
    /// in the trace, 0 when it started before the recording; nil when the
    /// runner had not run one), then the job it starts, if `starts` and a
    /// trace records. Returns the started job's id, or 0 when none is traced.
    func traceStep(_ changes: QueueTraceChanges, finishedID: UInt64?, starts: Bool) -> UInt64 {
        if let finishedID {
            record(.actorJobFinished(actor: label, ran: changes.ran), id: finishedID, at: changes.finishedAt)
        }
        guard starts, Instrumentation.isRecordingAnywhere, tracesEveryRecording || recorder != nil else { return 0 }
        let id = Instrumentation.makeID()
        record(.actorJobStarted(actor: label, depth: changes.startedDepth, waited: changes.waited), id: id, at: changes.startedAt)
        return id
    }

    private func record(_ kind: TraceEvent.Kind, id: UInt64, at time: UInt64) {
        if tracesEveryRecording {
            Instrumentation.appendToEveryRecording(kind, id: id, at: time)
        } else {
            recorder?.append(kind, id: id, at: time)
        }
    }
}
