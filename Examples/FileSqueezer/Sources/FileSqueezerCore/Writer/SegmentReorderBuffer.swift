/// Puts one file's segment results, which finish in any order, back in
/// order for the thread that writes them; the pure state, kept under the
/// file's lock by ``SegmentedFile``.
///
/// ```swift
/// var order = SegmentReorderBuffer<String>(count: 3)
/// order.insert(1, "b")              // true: no one is draining, so this caller drains
/// order.takeReady()                 // nil: segment 0 is missing; draining stops
/// order.insert(0, "a")              // true
/// order.takeReady()                 // [(0, "a"), (1, "b")]: write them, then ask again
/// order.takeReady()                 // nil
/// order.insert(2, "c")              // true; takeReady() -> [(2, "c")]; isComplete
/// ```
///
/// **One drainer at a time.** ``insert(_:_:)`` returns `true` to exactly one
/// caller while no one else is draining; that caller calls ``takeReady()``
/// until it returns `nil` (which ends its turn atomically, under the same
/// lock as the inserts), writing each run outside the lock. Whatever is
/// inserted meanwhile is picked up by that drainer's next ``takeReady()``, so
/// writes happen in segment order on one thread at a time and none is lost.
///
/// **Memory.** It holds only results that finished ahead of a missing one.
/// How many that can be is bounded by ``SegmentWindow`` (a segment starts
/// only when fewer than its limit are unwritten), not here; ``peakWaiting``
/// lets tests check the bound.
struct SegmentReorderBuffer<Element> {
    /// Segments in the file.
    let count: Int
    /// The next segment to hand out; every one before it has been taken.
    private(set) var next = 0
    private var waiting: [Int: Element] = [:]
    private var draining = false
    /// The most results held at once.
    private(set) var peakWaiting = 0

    init(count: Int) { self.count = count }

    /// Results finished but not yet taken.
    var waitingCount: Int { waiting.count }

    /// Every segment has been taken.
    var isComplete: Bool { next == count }

    /// Stores the result of segment `index` (each index once, in `0..<count`).
    /// - Returns: `true` if the caller must now drain with ``takeReady()``.
    mutating func insert(_ index: Int, _ element: Element) -> Bool {
        precondition(index >= next && index < count && waiting[index] == nil, "segment \(index) inserted twice or out of range")
        waiting[index] = element
        peakWaiting = max(peakWaiting, waiting.count)
        if draining { return false }
        draining = true
        return true
    }

    /// The results from ``next`` on that are all present, in order; `nil`
    /// when ``next`` is still missing, which ends the caller's turn as drainer.
    mutating func takeReady() -> [(index: Int, element: Element)]? {
        var run: [(index: Int, element: Element)] = []
        while let element = waiting.removeValue(forKey: next) {
            run.append((next, element))
            next += 1
        }
        if run.isEmpty {
            draining = false
            return nil
        }
        return run
    }
}

extension SegmentReorderBuffer: Sendable where Element: Sendable {}
