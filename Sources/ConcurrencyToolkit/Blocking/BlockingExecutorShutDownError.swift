extension BlockingExecutor {
    /// Thrown by `run` when its job did not run because the executor was shut down.
    ///
    /// ```swift
    /// do {
    ///     try await io.run { try save(document) }
    /// } catch let error as BlockingExecutor.ShutDownError {
    ///     logger.warning("\(error)")   // names the executor; the save did not happen
    /// }
    /// ```
    public struct ShutDownError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The ``BlockingExecutor/label`` of the executor that was shut down.
        public var label: String
        /// `true`: the job was waiting in the FIFO when `shutdown()` was called;
        /// `false`: `run` was called after it.
        public var wasQueued: Bool

        /// Creates the error (the executor does; tests may compare against one).
        ///
        /// For example: `#expect(throws: BlockingExecutor.ShutDownError(label: "io", wasQueued: false)) { ... }`
        public init(label: String, wasQueued: Bool) {
            self.label = label
            self.wasQueued = wasQueued
        }

        /// Names the executor and says whether the job was queued, for logs:
        ///
        /// ```swift
        /// do { try await io.run { try save(document) } } catch let error as BlockingExecutor.ShutDownError {
        ///     logger.warning("\(error)")
        /// }
        /// ```
        public var description: String {
            let when = wasQueued ? "was still queued when the executor was shut down" : "was submitted after shutdown()"
            return "BlockingExecutor '\(label)': the job \(when) and did not run. "
                + "Finish submitting work before calling shutdown(), or use an executor that is still running."
        }
    }
}
