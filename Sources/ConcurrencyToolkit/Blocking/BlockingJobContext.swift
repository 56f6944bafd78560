extension BlockingExecutor {
    /// What a running blocking job can ask about its caller: was it
    /// cancelled, and what should happen the moment it is.
    ///
    /// ```swift
    /// let line = try await executor.run { context in
    ///     var buffer = [UInt8](repeating: 0, count: 65_536)
    ///     let fd = open(path, O_RDONLY)
    ///     defer { close(fd) }
    ///     while !context.isCancelled {              // poll between chunks
    ///         let n = read(fd, &buffer, buffer.count)
    ///         if n <= 0 { break }
    ///         consume(buffer[..<n])
    ///     }
    ///     try context.checkCancellation()           // throws CancellationError
    /// }
    /// ```
    ///
    /// A blocking job is not a task: `Task.isCancelled` inside it says nothing
    /// about the caller. Use this context instead. Cancellation never stops a
    /// body that is already running; it is a request the body honours by
    /// checking ``isCancelled`` or by an interrupt registered with ``onCancel(_:)``.
    public struct JobContext: Sendable {
        let job: BlockingJob

        /// Whether the task that called `run` has been cancelled.
        ///
        /// For example: `for chunk in chunks where !context.isCancelled { write(chunk) }`
        public var isCancelled: Bool { job.isCancelled }

        /// Throws `CancellationError` if the task that called `run` has been
        /// cancelled. The error reaches that caller like any error the body throws.
        ///
        /// ```swift
        /// for file in files {
        ///     try context.checkCancellation()
        ///     try compress(file)
        /// }
        /// ```
        public func checkCancellation() throws {
            if job.isCancelled { throw CancellationError() }
        }

        /// Registers `interrupt` to run when the caller is cancelled while the
        /// body runs, to unblock a call that cannot poll: close the write end
        /// of a pipe the body reads, `shutdown(2)` a socket, `sqlite3_interrupt`.
        ///
        /// ```swift
        /// let bytes = try await executor.run { context in
        ///     context.onCancel { close(pipeWriteEnd) }   // read() returns 0 at once
        ///     var buffer = [UInt8](repeating: 0, count: 65_536)
        ///     return read(pipeReadEnd, &buffer, buffer.count)
        /// }
        /// ```
        ///
        /// `interrupt` runs at most once, on the thread that cancels the caller
        /// (concurrently with the body, which is the point), or at once on this
        /// thread if the caller is already cancelled. It never starts after the
        /// body returned. Keep it short and thread-safe: it runs inside the
        /// task's cancellation, like a `withTaskCancellationHandler` handler.
        public func onCancel(_ interrupt: @escaping @Sendable () -> Void) {
            job.onCancel(interrupt)
        }

        /// The priority of the task that called `run`, which also chose the
        /// lane's quality of service.
        ///
        /// For example: `if context.priority < .medium { usleep(1_000) }   // be gentle in the background`
        public var priority: TaskPriority { job.priority }
    }
}
