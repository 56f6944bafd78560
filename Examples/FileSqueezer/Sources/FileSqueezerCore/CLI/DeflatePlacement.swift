/// Where the parallel strategy runs the blocking compression of a file.
public enum DeflatePlacement: String, CaseIterable, Sendable, Codable {
    /// On `BlockingExecutor.shared` lanes: the cooperative pool stays free for
    /// timers, progress hops and the log actor (the default; see the walkthrough).
    case lanes
    /// Directly in the tasks, on the cooperative pool: with as many jobs as
    /// cores every pool thread is blocked, and the display freezes.
    case pool
}
