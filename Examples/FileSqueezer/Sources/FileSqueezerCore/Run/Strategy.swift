/// Where compression runs: the three stages of the WWDC22 talk
/// "Visualize and optimize Swift concurrency", replayed, and the talk's own
/// plain-Swift fix of stage 2 (`concurrent`).
///
/// ```swift
/// let squeezer = Squeezer(strategy: .actor, jobs: 2, compressor: compressor, display: display)
/// ```
///
/// Every strategy writes the same files and honours cancellation the same
/// way; they differ in speed and in how long the main actor is blocked.
enum Strategy: String, CaseIterable, Sendable, Codable {
    /// Stage 1: every file compressed on the main actor. The display freezes
    /// for as long as a file takes (the summary shows the stall).
    case mainActor = "main-actor"
    /// Stage 2: one actor does all compression. The main actor stays free,
    /// but the actor runs one file at a time: parallelism stays near 1.
    case actor
    /// Stage 2 fixed as the talk fixes it: a `@concurrent` (nonisolated)
    /// function compresses each file, one task per file on the cooperative
    /// pool, no toolkit executor. Files overlap, but blocking file I/O and
    /// deflate hold the pool's threads (`--jobs` does not apply: the pool's
    /// width, one thread per core, bounds it).
    case concurrent
    /// Stage 3: compression runs outside both actors, `--jobs` segments at a
    /// time (files larger than the segment size are split, as pigz does),
    /// hopping onto the actors only to report progress and results.
    case parallel
}
