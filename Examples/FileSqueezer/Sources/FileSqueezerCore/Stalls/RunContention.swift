import ConcurrencyToolkit

/// One actor contention episode the toolkit's `ActorContentionDetector` saw
/// during a run: files waited for an actor (stage 2's `ActorStrategy`) at
/// least the threshold. `--json` lists them in ``RunReport/contentions``;
/// the text summary sums them up per actor.
///
/// ```swift
/// for episode in report.contentions ?? [] {
///     print(episode.actor, episode.jobs, episode.longestWaitMilliseconds, episode.heldBy ?? "?")
/// }
/// // ActorStrategy 2 612.4 compressWholeFile(_:_:with:channels:isCancelled:) at Sources/...
/// ```
struct RunContention: Sendable, Codable, Equatable {
    /// The actor's executor label.
    var actor: String
    /// Calls that waited for the actor behind another of its calls during the episode.
    var jobs: Int
    /// The longest a call waited for the actor.
    var longestWaitMilliseconds: Double
    /// The most calls waiting at once.
    var maxQueueDepth: Int
    /// Every call's wait, summed (waiting × time).
    var waitedMilliseconds: Double
    /// The innermost frame, in the app's own code, of the call the actor was
    /// running meanwhile. Nil when no stack was taken.
    var heldBy: String?
    /// That call's frames, innermost first.
    var backtrace: [String]

    /// An episode report turned into an entry of the run's report.
    ///
    /// ```swift
    /// let entry = RunContention(ActorContention(label: "ActorStrategy", longestWait: .milliseconds(600), maxQueueDepth: 1))
    /// // entry.actor == "ActorStrategy", entry.longestWaitMilliseconds == 600
    /// ```
    init(_ contention: ActorContention) {
        actor = contention.label
        jobs = contention.jobs
        longestWaitMilliseconds = contention.longestWait.seconds * 1000
        maxQueueDepth = contention.maxQueueDepth
        waitedMilliseconds = contention.contention.seconds * 1000
        backtrace = contention.holderBacktrace
        heldBy = RunStall.ownFunction(in: backtrace)
    }
}
