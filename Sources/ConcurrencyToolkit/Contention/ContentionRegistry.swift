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

    private struct Entries {
        var list: [Entry] = []
        /// The count at which `add` forgets the released executors: twice the
        /// live ones after the last pruning, so adding stays O(1) amortized.
        var pruneAt = 64
    }

    private let entries = Lock(Entries())

    func add(_ core: MonitoredExecutorCore) {
        let entry = Entry(core: core, id: ObjectIdentifier(core))
        entries.withLock { entries in
            // Without a watcher `live()` never runs: prune here too, or every
            // executor ever made keeps an entry (found by a one-hour soak).
            if entries.list.count >= entries.pruneAt {
                entries.list.removeAll { $0.core == nil }
                entries.pruneAt = max(64, 2 * entries.list.count)
            }
            entries.list.append(entry)
        }
    }

    /// The executors alive now (and forgets the others).
    func live() -> [MonitoredExecutorCore] {
        entries.withLock { entries in
            entries.list.removeAll { $0.core == nil }
            return entries.list.compactMap(\.core)
        }
    }

    /// How many entries are kept, released executors' included (tests).
    var entryCount: Int { entries.withLock { $0.list.count } }
}
