/// Who wants actor contention watched, and the watcher that serves them:
/// the process (``ActorContentionDetector/start(threshold:)``) and any number
/// of recording scopes (the testing module), kept by a ``Demands``. The
/// watcher thread runs while anyone wants it, with the smallest threshold
/// asked for; each report reaches only those whose threshold it reaches.
final class ContentionDemand: Sendable {
    static let shared = ContentionDemand()

    private let demands = Demands<Duration, ContentionWatcher>(
        configure: ContentionDemand.configuration, makeWorker: { ContentionWatcher(configuration: $0) })

    /// The smallest threshold asked for (at least 1 ms), a look every
    /// quarter of it (1 to 50 ms).
    @Sendable private static func configuration(process: Duration?, all: [Duration]) -> ContentionWatcher.Configuration? {
        guard let threshold = all.min() else { return nil }
        let nanoseconds = max(MonotonicClock.nanoseconds(threshold), 1_000_000)
        return ContentionWatcher.Configuration(
            threshold: nanoseconds, interval: min(max(nanoseconds / 4, 1_000_000), 50_000_000),
            processThreshold: process)
    }

    /// The watcher, if running (for waiting on its looks).
    var watcher: ContentionWatcher? { demands.worker }

    func setProcess(threshold: Duration?) {
        demands.setProcessDemand(threshold)
    }

    func add(threshold: Duration) -> UInt64 { demands.add(threshold) }

    func remove(_ id: UInt64) { demands.remove(id) }
}
