extension BlockingExecutor {
    /// Runs `body` on one of the executor's lanes and returns its result,
    /// suspending (never blocking) the caller meanwhile.
    ///
    /// ```swift
    /// let config = try await BlockingExecutor.shared.run { context in
    ///     try context.checkCancellation()
    ///     return try parseConfig(atPath: "/etc/app.conf")   // blocking read
    /// }
    /// ```
    ///
    /// The body runs on a lane thread, never on the cooperative pool and
    /// never on the main thread, whatever the caller's isolation.
    ///
    /// - Cancellation: if the caller is cancelled while the job waits for a
    ///   lane, the job is removed, the caller throws `CancellationError` at once
    ///   and the body never runs. If the body is already running it runs on
    ///   (a thread cannot be stopped); it sees the cancellation through
    ///   `context` and may stop early. A body either ran or was cancelled, never both.
    /// - Shutdown: after ``shutdown(function:fileID:line:)`` (or when it drains the FIFO) the caller
    ///   throws ``ShutDownError`` and the body never runs.
    /// - Errors: whatever `body` throws reaches the caller unchanged.
    /// - Tracing: called inside ``withTraceRecording(isolation:_:)``, the job is
    ///   recorded (queued, started on which lane, finished or discarded) and
    ///   the recording is active inside `body`, so ``span(_:_:)``s there count.
    /// - Cost: a short job (one that ends within tens of microseconds) comes
    ///   back without a thread wake-up: the calling thread polls for the
    ///   result for a learned window of at most 50 µs before the task
    ///   suspends, and a lane that ran out of work polls for the next job as
    ///   long. Jobs that run long teach the caller's window to zero, jobs
    ///   that come seldom the lane's (Documentation/BlockingExecutor.md,
    ///   "Width and shutdown", says how; Performance.md has the figures).
    /// - Wait site: the caller's `function`, `fileID` and `line` name the wait
    ///   in a trace and in ``PendingContinuations``; leave the defaults.
    /// - Returns: What `body` returned.
    public func run<T>(
        isolation: isolated (any Actor)? = #isolation,
        function: String = #function, fileID: String = #fileID, line: Int = #line,
        _ body: sending @escaping (JobContext) throws -> T
    ) async throws -> T {
        // Captured here, in the caller's task: the lane that runs the job has no task locals.
        let trace = Instrumentation.begin(.jobQueued(executor: label))
        let priority = Task.currentPriority
        // `body` was sent to us; it goes on to the one lane that runs it.
        let body = UncheckedSendable(body)
        // Made before the job: an already-cancelled task runs the handler at once.
        let lifecycle = BlockingJob.Lifecycle(BlockingJobStateMachine())
        return try await withTaskCancellationHandler {
            try await withSafeThrowingContinuation(function: function, fileID: fileID, line: line) {
                (caller: SafeContinuation<T, any Error>) in
                let window = submit(TypedBlockingJob(lifecycle: lifecycle, priority: priority, trace: trace, body: body, caller: caller))
                // A lane has the job: if it ends within the window, this task
                // goes on without suspending, and nothing wakes a thread for it.
                if window > 0 { _ = SpinWindow.spin(nanoseconds: window) { !caller.box.isWaiting } }
            }
        } onCancel: {
            cancel(lifecycle)
        }
    }

    /// Runs `body` on one of the executor's lanes and returns its result; the
    /// form for a body that needs no ``JobContext``.
    ///
    /// For example: `let size = try await BlockingExecutor.shared.run { try fileSize(atPath: path) }`
    ///
    /// Behaves exactly like ``run(isolation:function:fileID:line:_:)-(_,_,_,_,(JobContext)->T)`` under
    /// cancellation (a queued job is removed, the caller throws
    /// `CancellationError`), shutdown (throws ``ShutDownError``) and errors
    /// (passed through unchanged).
    public func run<T>(
        isolation: isolated (any Actor)? = #isolation,
        function: String = #function, fileID: String = #fileID, line: Int = #line,
        _ body: sending @escaping () throws -> T
    ) async throws -> T {
        try await run(isolation: isolation, function: function, fileID: fileID, line: line) { (_: JobContext) in
            try body()
        }
    }

    /// Marks the job's caller cancelled, then does what its lifecycle says:
    /// withdraw it from the FIFO, or run the interrupt actions of its body.
    private func cancel(_ lifecycle: BlockingJob.Lifecycle) {
        switch lifecycle.withLock({ $0.cancel() }) {
        case .nothing: break
        case .withdraw(let ticket): withdraw(ticket: ticket)
        case .interrupt(let actions): for action in actions { action() }
        }
    }
}
