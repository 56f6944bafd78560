/// One `run` call in flight: its lifecycle (cancellation and interrupt
/// actions), when it was submitted, and its FIFO ticket. The typed subclass
/// holds the body and the continuation, so the FIFO stores one non-generic type.
class BlockingJob: @unchecked Sendable {
    // @unchecked: `lifecycle` is a Lock; `ticket` is read and written only
    // while holding the owning executor's state lock; the subclass's
    // continuation is written once, before the job is published through that lock.
    let lifecycle = Lock(BlockingJobLifecycle<@Sendable () -> Void>())
    let submittedAt = ContinuousClock.now
    let priority: TaskPriority
    /// Set while the job waits in the FIFO. Guarded by the executor's state lock.
    nonisolated(unsafe) var ticket: UInt64?
    /// The recording of the task that submitted the job, if any (almost always nil).
    let trace: TraceToken?

    init(priority: TaskPriority, trace: TraceToken?) {
        self.priority = priority
        self.trace = trace
    }

    var isCancelled: Bool { lifecycle.withLock { $0.isCancelled } }

    /// Marks the caller cancelled and runs the interrupt actions of a running
    /// body, outside the lock.
    func cancel() {
        let actions = lifecycle.withLock { $0.cancel() }
        for action in actions { action() }
    }

    /// Registers an interrupt action; runs it at once if the caller is already cancelled.
    func onCancel(_ action: @escaping @Sendable () -> Void) {
        let runNow = lifecycle.withLock { $0.register(action) }
        runNow?()
    }

    /// Runs the body on the current (lane) thread unless the caller was
    /// cancelled first, and keeps the outcome for ``resumeCaller()``. The
    /// lane records the outcome in the executor's metrics *before* resuming,
    /// so a caller that sees its result also sees its job counted.
    /// `lane` and `executor` name where it ran, for a trace recording.
    final func execute(onLane lane: Int, of executor: String) -> BlockingJobOutcome {
        let wait = ContinuousClock.now - submittedAt
        guard lifecycle.withLock({ $0.start() }) else {
            trace?.end(.jobDiscarded(reason: "cancelled while queued"))
            keep(CancellationError())
            return .cancelled(wait: wait)
        }
        trace?.emit(.jobStarted(executor: executor, lane: lane))
        return runBody() ? .completed(wait: wait) : .failed(wait: wait)
    }

    /// Runs the body, ends the lifecycle (no interrupt action starts after
    /// this) and keeps the result. Returns whether the body returned a value.
    func runBody() -> Bool { fatalError("subclass responsibility") }

    /// Keeps `error` as the outcome for a job that will not run.
    func keep(_ error: any Error) { fatalError("subclass responsibility") }

    /// Resumes the caller with the outcome kept by ``execute(onLane:of:)``.
    func resumeCaller() { fatalError("subclass responsibility") }

    /// Resumes the caller with `error`; the body never runs.
    func fail(_ error: any Error) { fatalError("subclass responsibility") }
}

/// A job whose body returns `T`.
final class TypedBlockingJob<T>: BlockingJob, @unchecked Sendable {
    private let body: (BlockingExecutor.JobContext) throws -> T
    private var continuation: SafeContinuation<T, any Error>?
    /// Written by ``runBody()``/``keep(_:)`` and read by ``resumeCaller()``,
    /// both on the lane thread that runs the job.
    private var outcome: Result<T, any Error>?

    init(
        priority: TaskPriority, trace: TraceToken? = nil,
        body: sending @escaping (BlockingExecutor.JobContext) throws -> T
    ) {
        self.body = body
        super.init(priority: priority, trace: trace)
    }

    /// Called once, before the job is submitted.
    func attach(_ continuation: SafeContinuation<T, any Error>) {
        self.continuation = continuation
    }

    override func runBody() -> Bool {
        let result: Result<T, any Error>
        do {
            // The lane runs no task: hand the body the submitter's recording,
            // so the user's spans and markers inside it are attributed.
            let context = BlockingExecutor.JobContext(job: self)
            result = .success(try Instrumentation.withRecorder(trace?.recorder) { try body(context) })
        } catch {
            result = .failure(error)
        }
        lifecycle.withLock { $0.finish() }
        let succeeded = if case .success = result { true } else { false }
        // Before the lane resumes the caller, who may end the recording then.
        trace?.end(.jobFinished(failed: !succeeded))
        outcome = result
        return succeeded
    }

    override func keep(_ error: any Error) {
        outcome = .failure(error)
    }

    override func resumeCaller() {
        continuation!.resume(with: outcome.take()!)
    }

    override func fail(_ error: any Error) {
        trace?.end(.jobDiscarded(reason: error is CancellationError ? "cancelled while queued" : "executor shut down"))
        continuation!.resume(throwing: error)
    }
}
