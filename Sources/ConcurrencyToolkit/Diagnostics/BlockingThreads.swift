/// The threads running blocking work right now: a ``BlockingExecutor`` lane
/// draining its jobs, a ``BlockingSerialExecutor``'s queue running its
/// actor. None of them is a cooperative-pool thread, so the stall detector
/// never signals them to capture a stack: the blocking calls they exist for
/// (`poll`, `usleep`, `sem_wait`, which no `SA_RESTART` restarts) are not
/// cut short with `EINTR` whenever some other code stalls the pool.
///
/// One lock acquisition to enter and one to leave, per burst of work (a
/// lane drains its whole queue inside one), not per job.
///
/// ```swift
/// BlockingThreads.running {
///     drainTheQueue()       // StallBlame leaves this thread alone meanwhile
/// }
/// let spared = BlockingThreads.now   // on the watchdog, before capturing
/// ```
enum BlockingThreads {
    /// Thread id → how many bursts it is inside (nested executors nest).
    private static let threads = Lock<[UInt64: Int]>([:])

    /// Runs `body` with the calling thread counted as running blocking work.
    static func running<Result>(_ body: () throws -> Result) rethrows -> Result {
        let id = CurrentThread.id
        threads.withLock { $0[id, default: 0] += 1 }
        defer {
            threads.withLock { threads in
                if let count = threads[id], count > 1 { threads[id] = count - 1 } else { threads[id] = nil }
            }
        }
        return try body()
    }

    /// The ids of the threads running blocking work at this moment.
    static var now: Set<UInt64> { threads.withLock { Set($0.keys) } }
}
