/// The end-of-run summary; `--json` prints it as is.
///
/// ```swift
/// let report = await squeezer.run(discovery)
/// print("\(report.compressed) files, \(report.parallelism)x parallel, stall \(report.longestMainActorStallMilliseconds) ms")
/// ```
///
/// After an interrupt, ``interrupted`` is `true` and ``files`` holds what
/// finished (and what was cancelled mid-file); the rest count in ``notFinished``.
struct RunReport: Sendable, Codable, Equatable {
    var strategy: Strategy
    var placement: DeflatePlacement
    var jobs: Int
    var level: Int
    var compressed: Int
    var failed: Int
    /// Files neither compressed nor failed: the run was interrupted first.
    var notFinished: Int
    var bytesIn: Int64
    var bytesOut: Int64
    /// Compressed size over original size (0.25 means four times smaller).
    var ratio: Double
    var wallSeconds: Double
    /// How many files were being compressed at once, on average: the
    /// compression jobs' time on files added up, at most one per core at any
    /// moment, over the wall time (``WorkOverlap``). 1 is one file at a time;
    /// it never exceeds the core count, and a busy machine does not lower it.
    var parallelism: Double
    /// Longest time the main actor could not run anything, in milliseconds.
    var longestMainActorStallMilliseconds: Double
    /// The process's CPU time (user and system, every thread) over the run,
    /// when `file-squeezer` measured it: over ``wallSeconds`` it is the share
    /// of the cores the run got, which other processes on the machine lower.
    var cpuSeconds: Double? = nil
    var interrupted: Bool
    /// The signal that stopped the run ("SIGINT", "SIGTERM", ...), if one did.
    var signal: String? = nil
    var notes: [String]
    var files: [FileOutcome]
    /// What the toolkit's `StallDetector` saw, when the run started it
    /// (`--detect-stalls`, `--stats`, `--trace`, `--timeline`): every stall
    /// of 250 ms or more, in the order they began. Nil when it did not run.
    var stalls: [RunStall]? = nil
    /// What the toolkit's `ActorContentionDetector` saw, started with the
    /// stall detector: every episode in which a call waited 250 ms or more
    /// for a monitored actor (stage 2's), in the order they ended.
    var contentions: [RunContention]? = nil

    /// 0: every file compressed; 1: some file failed (a signal N makes it 128 + N, set by the caller).
    var exitStatus: Int32 { failed > 0 ? 1 : 0 }
}
