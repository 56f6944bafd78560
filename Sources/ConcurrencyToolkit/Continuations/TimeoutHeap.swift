/// The pure part of the timeout scheduler: a min-heap of deadlines plus the
/// one deadline the timer is currently armed for. Operations return what the
/// caller must do to the real timer; nothing here touches a clock or a thread,
/// so it is unit-tested without either.
///
/// Deadlines are nanoseconds on one monotonic clock chosen by the caller.
struct TimeoutHeap<Payload> {
    struct Entry {
        var deadline: UInt64
        var payload: Payload
    }

    /// What the caller must do to its timer after an operation.
    enum TimerAction: Equatable {
        /// Leave the timer as it is.
        case none
        /// Arm the timer for this deadline (replacing the previous one).
        case arm(UInt64)
    }

    private(set) var entries: [Entry] = []
    /// The deadline the timer is armed for, if any. The timer is re-armed only
    /// when an earlier deadline arrives, so a steady stream of equal timeouts
    /// costs no timer call at all.
    private(set) var armedDeadline: UInt64?

    var count: Int { entries.count }
    var earliestDeadline: UInt64? { entries.first?.deadline }

    mutating func insert(_ payload: Payload, deadline: UInt64) -> TimerAction {
        entries.append(Entry(deadline: deadline, payload: payload))
        siftUp(entries.count - 1)
        if let armed = armedDeadline, armed <= deadline { return .none }
        armedDeadline = deadline
        return .arm(deadline)
    }

    /// The timer fired at `now`: removes every entry due by then (earliest
    /// first) and says when to fire next.
    mutating func timerFired(now: UInt64) -> (due: [Payload], next: TimerAction) {
        armedDeadline = nil
        var due: [Payload] = []
        while let first = entries.first, first.deadline <= now {
            due.append(popFirst())
        }
        guard let next = earliestDeadline else { return (due, .none) }
        armedDeadline = next
        return (due, .arm(next))
    }

    /// Drops the entries `isDead` selects (finished or freed continuations),
    /// in O(n). The armed deadline stays: at worst the timer fires once for nothing.
    mutating func removeAll(where isDead: (Payload) -> Bool) {
        entries.removeAll { isDead($0.payload) }
        var index = entries.count / 2
        while index > 0 {
            index -= 1
            siftDown(index)
        }
    }

    private mutating func popFirst() -> Payload {
        let last = entries.removeLast()
        guard !entries.isEmpty else { return last.payload }
        let first = entries[0]
        entries[0] = last
        siftDown(0)
        return first.payload
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].deadline < entries[parent].deadline else { return }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { return }
            let right = left + 1
            var smallest = left
            if right < entries.count, entries[right].deadline < entries[left].deadline { smallest = right }
            guard entries[smallest].deadline < entries[parent].deadline else { return }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
