/// A monitored actor in the trace: its jobs on a row of their own, its queue
/// depth and running jobs as a counter track (`TraceEvent.Kind.actorJob…`).
///
/// An executor created in a recording records into that one only; one created
/// outside any records into every recording running, as a stall report does:
/// the runtime enqueues a job after the caller's task left the thread, so the
/// caller's recording cannot be read there. While nothing records, it pays a
/// relaxed load and a branch per enqueue and per job. Late events after its
/// recording ended are dropped and counted (it holds the recorder weakly).
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
