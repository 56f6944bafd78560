/// Every ``MonitoredActorExecutor`` alive, for the contention watcher to
/// look at. An executor joins when it is created (one lock, once) and
/// leaves when it is gone (the watcher drops released ones as it looks; it
/// holds one whose contention episode goes on until that is reported).
final class ContentionRegistry: Sendable {
    static let shared = ContentionRegistry()

    private struct Entry {
        weak var core: MonitoredExecutorCore?
        let id: ObjectIdentifier
    }

    private let entries = Lock<[Entry]>([])

    func add(_ core: MonitoredExecutorCore) {
        let entry = Entry(core: core, id: ObjectIdentifier(core))
        entries.withLock { $0.append(entry) }
    }

    /// The executors alive now (and forgets the others).
    func live() -> [MonitoredExecutorCore] {
        entries.withLock { entries in
            entries.removeAll { $0.core == nil }
            return entries.compactMap(\.core)
        }
    }
}
