extension BlockingExecutor {
    /// Stops the executor: running jobs finish, queued jobs fail with
    /// ``ShutDownError``, later `run` calls throw it. Returns when no lane is busy.
    ///
    /// ```swift
    /// let io = BlockingExecutor(width: 8, label: "import")
    /// defer { Task { await io.shutdown() } }
    /// ...
    /// await io.shutdown()      // running imports finish, the rest fail fast
    /// ```
    ///
    /// Every caller is resumed: no continuation is left behind. Calling it
    /// again is harmless and waits the same way. It does not cancel running
    /// bodies (cancel their callers for that) and is not itself cancellable.
    /// Tasks running under a task-executor preference for this executor go on
    /// running on the global concurrent executor. The lanes' threads belong to
    /// Dispatch, which retires them once idle.
    ///
    /// Shutting down ``shared`` is a programmer error (other code relies on
    /// it) and stops the process with a message.
    ///
    /// The caller's `function`, `fileID` and `line` name the wait in a trace
    /// and in ``PendingContinuations``; leave the defaults.
    public func shutdown(function: String = #function, fileID: String = #fileID, line: Int = #line) async {
        checkPrecondition(
            self !== BlockingExecutor.shared,
            "BlockingExecutor.shared.shutdown() at \(fileID):\(line): the shared executor cannot be shut down (other code relies on it); create your own BlockingExecutor to control its lifetime")
        await withSafeContinuation(ifLeaked: (), function: function, fileID: fileID, line: line) { (waiter: SafeContinuation<Void, Never>) in
            let action = state.withLock { $0.shutdown(waiter: waiter) }
            for work in action.drained {
                switch work {
                case .job(let job): job.fail(ShutDownError(label: label, wasQueued: true))
                case .slice(let slice, _): Self.runElsewhere(slice)
                }
            }
            if action.resumeNow { waiter.resume() }
        }
    }
}
