extension BlockingExecutor {
    /// A snapshot of what an executor is doing and has done, for dashboards,
    /// logs and tests.
    ///
    /// ```swift
    /// let m = BlockingExecutor.shared.metrics
    /// logger.info("blocking: \(m.running) running, \(m.queued) queued, worst wait \(m.queueWaitMax)")
    /// ```
    ///
    /// The counters add up: `submitted == queued + running + completed + failed + cancelled`
    /// whenever no job is between two of these states (a snapshot taken while
    /// jobs move can be off by the jobs in flight). `rejected` is counted apart
    /// from `submitted`. Executor slices (tasks running under
    /// `withTaskExecutorPreference`) are counted like jobs; they always complete.
    public struct Metrics: Sendable, Hashable, CustomStringConvertible {
        /// Jobs waiting in the FIFO for a lane.
        public var queued = 0
        /// Lanes busy with a job right now.
        public var running = 0
        /// The most lanes ever busy at once.
        public var peakRunning = 0
        /// Jobs accepted (everything handed to `run` or `enqueue` before shutdown).
        public var submitted = 0
        /// Jobs whose body returned a value (and executor slices that ran).
        public var completed = 0
        /// Jobs whose body threw (the error reached the caller unchanged).
        public var failed = 0
        /// Jobs whose caller was cancelled before the body started; the body
        /// never ran. A job cancelled *while running* counts as completed or failed.
        public var cancelled = 0
        /// Jobs that never ran because of `shutdown()`: queued when it was
        /// called, or submitted after it.
        public var rejected = 0
        /// Time jobs spent between submission and the start of their body, added up.
        public var queueWaitTotal: Duration = .zero
        /// The longest time a job spent between submission and the start of its body.
        public var queueWaitMax: Duration = .zero

        /// Creates an all-zero snapshot (the toolkit fills in real ones):
        ///
        /// ```swift
        /// var expected = BlockingExecutor.Metrics()
        /// expected.completed = 3
        /// ```
        public init() {}

        /// One line with every counter.
        public var description: String {
            "queued \(queued), running \(running) (peak \(peakRunning)), submitted \(submitted), "
                + "completed \(completed), failed \(failed), cancelled \(cancelled), rejected \(rejected), "
                + "queue wait total \(queueWaitTotal) max \(queueWaitMax)"
        }
    }
}
