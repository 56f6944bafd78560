/// The pure part of the timeout scheduler: a min-heap of deadlines plus the
/// one deadline the timer is currently armed for. Operations return what the
/// caller must do to the real timer; nothing here touches a clock or a thread,
/// so it is unit-tested without either.
///
/// Each element is told its position whenever it moves, so an element can be
/// removed in O(log n) when its continuation goes away before its deadline.
/// Deadlines are nanoseconds on one monotonic clock chosen by the caller.
struct TimeoutHeap<Element: TimeoutHeapElement> {
    struct Entry {
        var deadline: UInt64
        var element: Element
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

    mutating func insert(_ element: Element, deadline: UInt64) -> TimerAction {
        entries.append(Entry(deadline: deadline, element: element))
        element.heapIndexDidChange(to: entries.count - 1)
        siftUp(entries.count - 1)
        if let armed = armedDeadline, armed <= deadline { return .none }
        armedDeadline = deadline
        return .arm(deadline)
    }

    /// The timer fired at `now`: removes every entry due by then (earliest
    /// first) and says when to fire next.
    mutating func timerFired(now: UInt64) -> (due: [Element], next: TimerAction) {
        armedDeadline = nil
        var due: [Element] = []
        while let first = entries.first, first.deadline <= now {
            due.append(remove(at: 0))
        }
        guard let next = earliestDeadline else { return (due, .none) }
        armedDeadline = next
        return (due, .arm(next))
    }

    /// Removes the element at `index` (as last reported to it). The armed
    /// deadline stays: at worst the timer fires once for nothing.
    @discardableResult
    mutating func remove(at index: Int) -> Element {
        let removed = entries[index].element
        let last = entries.removeLast()
        if index < entries.count {
            entries[index] = last
            last.element.heapIndexDidChange(to: index)
            siftDown(siftUp(index))
        }
        removed.heapIndexDidChange(to: nil)
        return removed
    }

    /// Moves the entry at `start` up while it is earlier than its parent; returns where it ended.
    @discardableResult
    private mutating func siftUp(_ start: Int) -> Int {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].deadline < entries[parent].deadline else { break }
            swap(child, parent)
            child = parent
        }
        return child
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < entries.count else { return }
            let right = left + 1
            var earliest = left
            if right < entries.count, entries[right].deadline < entries[left].deadline { earliest = right }
            guard entries[earliest].deadline < entries[parent].deadline else { return }
            swap(parent, earliest)
            parent = earliest
        }
    }

    private mutating func swap(_ a: Int, _ b: Int) {
        entries.swapAt(a, b)
        entries[a].element.heapIndexDidChange(to: a)
        entries[b].element.heapIndexDidChange(to: b)
    }
}

/// Something kept in a ``TimeoutHeap`` that wants to know where it is.
protocol TimeoutHeapElement {
    /// Called on every move; `nil` when the element leaves the heap.
    func heapIndexDidChange(to index: Int?)
}
