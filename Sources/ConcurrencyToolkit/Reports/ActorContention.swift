/// A report that work waited for an actor longer than a threshold: which
/// actor, how long and how deep the queue grew, and what the actor was
/// running meanwhile. One report per *episode*: from the first moment a job
/// had waited the threshold behind other jobs of the actor until none had
/// for two thresholds (so the tail of a backlog stays in its episode). An
/// episode that lasts is also reported while it lasts (``isOngoing``), at
/// 10 s and then every minute.
///
/// ```swift
/// ActorContentionHandler.bootstrap(.custom { contention in
///     logger.warning("\(contention.label) made \(contention.jobs) jobs wait up to \(contention.longestWait)")
///     logger.debug("held by \(contention.holderBacktrace.first ?? "?")")
/// })
/// ActorContentionDetector.start(threshold: .milliseconds(100))
/// ```
///
/// Only actors that adopt a ``MonitoredActorExecutor`` are watched, while
/// ``ActorContentionDetector`` runs (or a testing helper records). The value
/// lives beside the other reports because a trace event carries it.
public struct ActorContention: Error, Sendable, Hashable, CustomStringConvertible {
    /// The executor's label (``MonitoredActorExecutor/label``).
    public var label: String
    /// The longest any job waited for the actor during the episode: queued
    /// while another of its jobs ran (time waiting for a pool thread while
    /// the actor was idle is a stall, not contention, and is not counted).
    public var longestWait: Duration
    /// The most jobs waiting for the actor at once during the episode.
    public var maxQueueDepth: Int
    /// Jobs that waited for the actor during the episode: queued behind
    /// another of its jobs, and started. A job that found the actor free
    /// (the first of a burst) is not counted, nor one still queued.
    public var jobs: Int
    /// Waiting × time over the episode: every job's wait in it, summed, as
    /// Go's mutex profile and Abseil count contention (10 jobs waiting 1 s is 10 s).
    public var contention: Duration
    /// How long the episode lasted (so far, when ``isOngoing``): from its
    /// first job's enqueue until no job waited the threshold any more.
    public var duration: Duration
    /// The stack of the job that was running on the actor when the wait
    /// crossed the threshold (innermost first, `function at file:line`),
    /// captured without stopping it; empty where stacks cannot be captured
    /// (outside Linux) or when the episode ended before anyone looked.
    public var holderBacktrace: [String]
    /// The OS thread that ran the holding job (0: not known).
    public var holderThread: UInt64
    /// Whether the episode is still going on: a report made while it lasts,
    /// with its numbers so far. The episode's ended report comes later and
    /// covers it whole, so count or sum only reports where this is `false`.
    ///
    /// ```swift
    /// ActorContentionHandler.bootstrap(.custom { contention in
    ///     if contention.isOngoing { logger.error("\(contention.label) contended for \(contention.duration) so far") }
    ///     else { metrics.record("actor_contention", contention.contention, tags: ["actor": contention.label]) }
    /// })
    /// ```
    public var isOngoing: Bool

    /// Makes a report (the detector makes them; tests and custom handlers may too).
    ///
    /// For example: `let sample = ActorContention(label: "Cache", longestWait: .milliseconds(300), maxQueueDepth: 5)`
    public init(
        label: String, longestWait: Duration, maxQueueDepth: Int, jobs: Int = 0, contention: Duration = .zero,
        duration: Duration = .zero, holderBacktrace: [String] = [], holderThread: UInt64 = 0, isOngoing: Bool = false
    ) {
        self.label = label
        self.longestWait = longestWait
        self.maxQueueDepth = maxQueueDepth
        self.jobs = jobs
        self.contention = contention
        self.duration = duration
        self.holderBacktrace = holderBacktrace
        self.holderThread = holderThread
        self.isOngoing = isOngoing
    }

    /// One line, then the holder's frames, for example
    /// `actor CompressionWorker: 16 jobs waited up to 2.3 s (queue 15 deep, 18.4 s waited in all), held by compressWholeFile(_:) at …`;
    /// while the episode lasts, `actor CompressionWorker, ongoing for 10.2 s: 16 jobs waited …`.
    ///
    /// ```swift
    /// let contention = ActorContention(label: "Cache", longestWait: .milliseconds(300), maxQueueDepth: 5, jobs: 6)
    /// print(contention)   // actor Cache: 6 jobs waited up to 300 ms (queue 5 deep, 0 µs waited in all); …
    /// ```
    public var description: String {
        var text = "actor \(label)\(isOngoing ? ", ongoing for \(Self.format(duration))" : ""): "
        text += "\(jobs) jobs waited up to \(Self.format(longestWait))"
        text += " (queue \(maxQueueDepth) deep, \(Self.format(contention)) waited in all)"
        if let first = holderBacktrace.first {
            text += ", held by \(first)"
            for frame in holderBacktrace.dropFirst().prefix(7) { text += "\n    \(frame)" }
        } else {
            text += "; the holder's stack was not captured"
        }
        return text
    }

    /// `2.3 s`, `150 ms`, `80 µs`.
    static func format(_ duration: Duration) -> String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        func rounded(_ value: Double) -> String {
            value >= 100 ? String(Int(value.rounded())) : String(Double(Int((value * 10).rounded())) / 10)
        }
        if seconds >= 1 { return "\(rounded(seconds)) s" }
        if seconds >= 0.001 { return "\(rounded(seconds * 1000)) ms" }
        return "\(rounded(seconds * 1_000_000)) µs"
    }
}
