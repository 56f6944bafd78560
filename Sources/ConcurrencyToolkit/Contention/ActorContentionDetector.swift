/// Watches every actor that adopts a ``MonitoredActorExecutor`` and reports
/// each ``ActorContention``: work that waited for one of them longer than a
/// threshold, with the stack of the job that held it.
///
/// ```swift
/// @main struct Server {
///     static func main() async throws {
///         ActorContentionDetector.start(threshold: .milliseconds(100))
///         defer { ActorContentionDetector.stop() }
///         try await runServer()
///     }
/// }
/// ```
///
/// A watcher thread (a plain thread, outside the pool) looks at every
/// monitored executor every quarter threshold (at most every 50 ms). An
/// episode begins at the first look that sees a job waiting at least the
/// threshold — then the stack of the job running on the actor is captured,
/// without stopping it — and ends once no job has waited the threshold for
/// two thresholds. It is reported when it ends, to the process-wide
/// ``ActorContentionHandler`` (by default an `ACTOR CONTENTION:` block on
/// standard error, rate-limited), and while it lasts, at 10 s and then every
/// minute (``ActorContention/isOngoing``).
///
/// Cost: nothing until started; then one lock per monitored executor per
/// look, and nothing per job beyond what the executor always measures.
public enum ActorContentionDetector {
    /// The default threshold, 100 ms: a wait a user notices when it is on
    /// the way to the screen.
    ///
    /// For example: `ActorContentionDetector.start(threshold: ActorContentionDetector.defaultThreshold * 2)`
    public static let defaultThreshold: Duration = .milliseconds(100)

    /// The shortest threshold, 1 ms: a hop onto an actor costs tens of
    /// microseconds, and a thread's wake-up up to a millisecond on a busy
    /// machine, so a lower threshold would report every queued job.
    ///
    /// For example: `ActorContentionDetector.start(threshold: ActorContentionDetector.minimumThreshold * 20)`
    public static let minimumThreshold: Duration = .milliseconds(1)

    /// Starts watching for the process, reporting every episode in which a
    /// job waited at least `threshold`.
    ///
    /// For example: `ActorContentionDetector.start(threshold: .milliseconds(250))`
    ///
    /// Idempotent: starting it again changes the threshold and does nothing else.
    /// A threshold of zero or less stops the process with a message; one
    /// below ``minimumThreshold`` is raised to it, with one warning on
    /// standard error.
    public static func start(threshold: Duration = defaultThreshold) {
        let threshold = DetectorThreshold.checked(threshold, floor: minimumThreshold, call: "ActorContentionDetector.start")
        ContentionDemand.shared.setProcess(threshold: threshold)
    }

    /// Stops what ``start(threshold:)`` started: the watcher thread ends
    /// within one look; an episode going on is not reported.
    ///
    /// For example: `ActorContentionDetector.stop()`
    ///
    /// Idempotent. While a testing helper (`withActorContentionRecorded`)
    /// records, the watcher runs on for it, but the process-wide handler
    /// gets no more reports.
    public static func stop() {
        ContentionDemand.shared.setProcess(threshold: nil)
    }

    /// Runs `operation` with contention watched at `threshold` and every
    /// report made meanwhile sent to `report`: the testing module's recorders
    /// are built on it. After `operation` returns it waits two looks, which
    /// end an episode as soon as no job waits the threshold, so an episode
    /// that ended just before is reported.
    package static func recording<Result>(
        threshold: Duration, report: @escaping @Sendable (ActorContention) -> Void,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        let threshold = DetectorThreshold.checked(threshold, floor: minimumThreshold, call: "withActorContentionRecorded")
        let demand = ContentionDemand.shared.add(threshold: threshold)
        defer { ContentionDemand.shared.remove(demand) }
        return try await ActorContention.reporting.withScope(
            .custom(report), accepting: { $0.longestWait >= threshold }, isolation: isolation
        ) {
            let result = try await operation()
            await ContentionDemand.shared.watcher?.waitForLooks(2)
            return result
        }
    }
}
