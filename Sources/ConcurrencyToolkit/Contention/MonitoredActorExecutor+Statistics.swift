extension MonitoredActorExecutor {
    /// What a ``MonitoredActorExecutor`` measured since it was created.
    ///
    /// ```swift
    /// let stats = cache.executor.statistics
    /// metrics.gauge("actor.jobs", stats.jobs)
    /// metrics.record("actor.wait.p99", stats.p99Wait, tags: ["actor": stats.label])
    /// metrics.gauge("actor.busy_percent", Int(stats.busyFraction * 100))
    /// ```
    ///
    /// A job's wait is the time it spent queued *while another job of this
    /// actor ran*: what the actor made it wait. Time in the queue while
    /// nothing ran (an idle actor waking, or a saturated pool giving its
    /// runner no thread) is not counted: the actor held nobody up, and the
    /// pool's stalls are ``StallDetector``'s to report. So callers that never
    /// overlap wait zero, on any machine. Percentiles come from logarithmic
    /// buckets, within 25% of the exact value and never above `longestWait`
    /// (nor below the shortest wait); `longestWait` is exact.
    public struct Statistics: Sendable, Hashable {
        /// The executor's label.
        public var label: String
        /// Jobs started so far (each call into the actor from outside is at
        /// least one; every resumption after an `await` inside it is another),
        /// the ones that found the actor free included: the count the wait
        /// percentiles and a throughput are taken over. An ``ActorContention``
        /// report's `jobs` counts only the jobs that waited.
        public var jobs: Int
        /// Jobs waiting now.
        public var queueDepth: Int
        /// The most jobs ever waiting at once.
        public var maxQueueDepth: Int
        /// The longest any job waited behind other jobs of the actor.
        public var longestWait: Duration
        /// The median wait (zero before the first job, and for jobs that found the actor free).
        public var medianWait: Duration
        /// The wait 99% of jobs did not exceed (zero before the first job).
        public var p99Wait: Duration
        /// Waiting × time: every job's wait, summed (with the jobs waiting
        /// now counted up to now). Go's mutex profile and Abseil's count
        /// contention this way: 10 jobs waiting 1 s is 10 s.
        public var contention: Duration
        /// Time spent running jobs (the one running now counted up to now).
        public var busyTime: Duration
        /// Time since the executor was created.
        public var age: Duration

        /// `busyTime` over `age`, from 0 to 1.
        ///
        /// ```swift
        /// let stats = cache.executor.statistics
        /// if stats.busyFraction > 0.9 { logger.warning("\(stats.label) is saturated") }
        /// ```
        public var busyFraction: Double {
            age > .zero ? min(1, busyTime / age) : 0
        }

        init(measures: QueueMeasures, depth: Int, label: String, age: UInt64, now: UInt64) {
            self.label = label
            jobs = Int(clamping: measures.started)
            queueDepth = depth
            maxQueueDepth = measures.maxDepth
            longestWait = .nanoseconds(Int64(clamping: measures.longestWait))
            medianWait = .nanoseconds(Int64(clamping: measures.waits.percentile(0.5) ?? 0))
            p99Wait = .nanoseconds(Int64(clamping: measures.waits.percentile(0.99) ?? 0))
            contention = .nanoseconds(Int64(clamping: measures.waitingTime(now: now)))
            busyTime = .nanoseconds(Int64(clamping: measures.busyClock(now: now)))
            self.age = .nanoseconds(Int64(clamping: age))
        }
    }
}
