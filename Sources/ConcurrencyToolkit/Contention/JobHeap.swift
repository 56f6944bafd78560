/// The jobs waiting for an actor, highest priority first and, within a
/// priority, first come first served: a binary heap in one array that grows
/// geometrically and never shrinks, so a steady flow of jobs allocates
/// nothing.
///
/// Generic over the job so the queue's state machine is tested with plain
/// values; the executor stores `UnownedJob`s.
struct JobHeap<Job> {
    struct Entry {
        var job: Job
        var priority: UInt8
        /// The actor's busy clock when it was enqueued, for its wait
        /// (``QueueMeasures/busyClock(now:)``).
        var busyAtEnqueue: UInt64
        /// Enqueue order, for first come first served within a priority.
        var order: UInt64
    }

    private var entries: [Entry] = []

    init(capacity: Int = 16) {
        entries.reserveCapacity(capacity)
    }

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }
    /// The next job's priority.
    var topPriority: UInt8? { entries.first?.priority }

    /// The busy clock when the longest-waiting job was enqueued (a scan:
    /// call it only when that matters, see ``MonitoredQueueStateMachine/observe(now:threshold:)``).
    var earliestBusyAtEnqueue: UInt64? { entries.lazy.map(\.busyAtEnqueue).min() }

    private static func precedes(_ a: Entry, _ b: Entry) -> Bool {
        a.priority != b.priority ? a.priority > b.priority : a.order < b.order
    }

    mutating func push(_ entry: Entry) {
        entries.append(entry)
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(entries[child], entries[parent]) else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> Entry? {
        guard !entries.isEmpty else { return nil }
        entries.swapAt(0, entries.count - 1)
        let top = entries.removeLast()  // keeps the capacity
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { break }
            var first = left
            if left + 1 < entries.count, Self.precedes(entries[left + 1], entries[left]) { first = left + 1 }
            guard Self.precedes(entries[first], entries[parent]) else { break }
            entries.swapAt(first, parent)
            parent = first
        }
        return top
    }
}
