/// Where the parallel strategy runs the blocking compression of each segment
/// (and the ending of each file).
///
/// ```swift
/// let squeezer = Squeezer(strategy: .parallel, jobs: 2, compressor: compressor, placement: .pool, display: display)
/// ```
///
/// Both honour cancellation at the next chunk (`.lanes` through the job
/// context, `.pool` through the task).
enum DeflatePlacement: String, CaseIterable, Sendable, Codable {
    /// On `BlockingExecutor` lanes, as many as jobs, made for the run (the
    /// files' endings on `BlockingExecutor.shared`): the cooperative pool
    /// stays free for timers, progress hops and the log actor (the default;
    /// see the walkthrough).
    case lanes
    /// Directly in the tasks, on the cooperative pool: with as many jobs as
    /// cores every pool thread is blocked, and the display freezes for as
    /// long as a segment takes (a whole file with a large `--segment-kib`).
    case pool
}
