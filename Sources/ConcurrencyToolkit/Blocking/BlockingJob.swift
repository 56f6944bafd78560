/// One `run` call in flight, as the FIFO and the lanes see it: one concrete,
/// non-generic type. The caller's body and continuation live in its generic
/// subclass, ``TypedBlockingJob``, so the job knows how to finish without the
/// FIFO or the lanes knowing `T`. (A subclass, not two closures capturing
/// them at init: their contexts cost two allocations and several
/// generic-metadata lookups on every `run`; Performance.md, "A quiet machine,
/// and the parked hand-off's bookkeeping".)
///
/// Its ``lifecycle`` is made before it, by `run`: the task's cancellation
/// handler needs it and can run before the job exists (an already-cancelled
/// task runs the handler at once).
class BlockingJob: @unchecked Sendable {
    // @unchecked: the subclass holds the caller's body, which is not Sendable
    // (`run` receives it as `sending`). `perform` is called once, on the lane
    // that took the job out of the FIFO, and `failCaller` only by whoever took
    // it out instead (a withdrawal, shutdown): one of them, once. Everything
    // else is immutable or a Lock.

    typealias Interrupt = @Sendable () -> Void
    /// The job's cancellation state, shared with the cancellation handler.
    typealias Lifecycle = Lock<BlockingJobStateMachine<Interrupt>>

    let lifecycle: Lifecycle
    let priority: TaskPriority
    /// When `run` was called, on ``MonotonicClock``.
    let submittedAt: UInt64
    /// The recording of the task that submitted the job, if any (almost always nil).
    let trace: TraceToken?

    fileprivate init(lifecycle: Lifecycle, priority: TaskPriority, trace: TraceToken?) {
        self.lifecycle = lifecycle
        self.priority = priority
        self.submittedAt = MonotonicClock.now
        self.trace = trace
    }

    /// Runs the body on this thread, calls `finished` (did it return a value?),
    /// then resumes the caller with the body's result.
    fileprivate func perform(_ context: BlockingExecutor.JobContext, finished: (Bool) -> Void) {
        preconditionFailure("BlockingJob is abstract: run makes a TypedBlockingJob")
    }

    /// Resumes the caller with `error`; the body never runs.
    fileprivate func failCaller(_ error: any Error) {
        preconditionFailure("BlockingJob is abstract: run makes a TypedBlockingJob")
    }

    var isCancelled: Bool { lifecycle.withLock { $0.isCancelled } }

    /// Registers an interrupt action; runs it at once if the caller is already cancelled.
    func onCancel(_ action: @escaping Interrupt) {
        let runNow = lifecycle.withLock { $0.register(action) }
        runNow?()
    }

    /// Runs the body on the current (lane) thread unless the caller was
    /// cancelled first, then resumes the caller. `record` gets the outcome
    /// *before* the caller is resumed (the lane counts it in the executor's
    /// metrics, so a caller that sees its result also sees its job counted).
    /// `lane` and `executor` name where it ran, for a trace recording.
    func execute(onLane lane: Int, of executor: String, record: (BlockingJobOutcome) -> Void) {
        let wait = Duration.nanoseconds(Int64(truncatingIfNeeded: MonotonicClock.now &- submittedAt))
        guard lifecycle.withLock({ $0.start() }) else {
            trace?.end(.jobDiscarded(reason: "cancelled while queued"))
            record(.cancelled(wait: wait))
            failCaller(CancellationError())
            return
        }
        trace?.emit(.jobStarted(executor: executor, lane: lane))
        perform(BlockingExecutor.JobContext(job: self)) { succeeded in
            // No interrupt action starts after this.
            lifecycle.withLock { $0.finish() }
            // Before the caller is resumed: it may end the recording then.
            trace?.end(.jobFinished(failed: !succeeded))
            record(succeeded ? .completed(wait: wait) : .failed(wait: wait))
        }
    }

    /// Resumes the caller with `error`; the body never runs. Called by
    /// whoever took the job out of the FIFO instead of a lane.
    func fail(_ error: any Error) {
        trace?.end(.jobDiscarded(reason: error is CancellationError ? "cancelled while queued" : "executor shut down"))
        failCaller(error)
    }
}

/// A ``BlockingJob`` for a body that returns `T`: the one place that knows `T`.
final class TypedBlockingJob<T>: BlockingJob, @unchecked Sendable {
    private let body: UncheckedSendable<(BlockingExecutor.JobContext) throws -> T>
    private let caller: SafeContinuation<T, any Error>

    init(
        lifecycle: Lifecycle, priority: TaskPriority, trace: TraceToken?,
        body: UncheckedSendable<(BlockingExecutor.JobContext) throws -> T>,
        caller: SafeContinuation<T, any Error>
    ) {
        self.body = body
        self.caller = caller
        super.init(lifecycle: lifecycle, priority: priority, trace: trace)
    }

    fileprivate override func perform(_ context: BlockingExecutor.JobContext, finished: (Bool) -> Void) {
        // The lane runs no task: hand the body the submitter's recording, so
        // the user's spans and markers inside it are attributed.
        let value: T
        do {
            value = try Instrumentation.withRecorder(trace?.recorder) { try body.value(context) }
        } catch {
            finished(false)
            caller.resume(throwing: error)
            return
        }
        finished(true)
        caller.resume(returning: value)
    }

    fileprivate override func failCaller(_ error: any Error) {
        caller.resume(throwing: error)
    }
}
