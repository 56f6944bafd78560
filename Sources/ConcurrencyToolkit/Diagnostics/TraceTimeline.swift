/// A ``Trace`` turned into what the exports draw: intervals (begin and end
/// paired by id) placed either on a thread's lane or among the waits, plus
/// instants. Pure: built and tested without threads.
struct TraceTimeline {
    /// A row group of bars; how each looks and reads is in TraceEventKinds.swift.
    enum Category: CaseIterable {
        case jobRunning, jobQueued, continuationWait, delivery, child, span, asyncSpan
    }

    enum Placement: Equatable {
        /// Ran on its start thread, nested `depth` levels inside other work there.
        case thread(depth: Int)
        /// A wait, or work that moved between threads or overlapped other work
        /// on its thread without nesting: drawn in `row` of its category.
        case detached(row: Int)
    }

    struct Interval {
        var category: Category
        var name: String
        var id: UInt64
        var start: UInt64
        /// The trace's end if it had not finished.
        var end: UInt64
        var finished: Bool
        var startThread: UInt64
        var endThread: UInt64?
        var details: [(key: String, value: String)]
        var placement: Placement = .detached(row: 0)
        /// For pending continuations: where they were created.
        var site: CallSite?

        var duration: UInt64 { end &- start }
    }

    struct Instant {
        /// How each looks and reads is in TraceEventKinds.swift.
        enum Kind: CaseIterable { case marker, misuse, stall }
        var kind: Kind
        var name: String
        var time: UInt64
        var thread: UInt64
    }

    var threads: [TraceThread]
    var duration: UInt64
    var eventCount: Int
    var discardedEventCount: Int
    var intervals: [Interval] = []
    var instants: [Instant] = []

    init(_ trace: Trace) {
        threads = trace.threads
        duration = max(trace.duration, trace.events.map(\.time).max() ?? 0)
        eventCount = trace.events.count
        discardedEventCount = trace.discardedEventCount
        pair(trace.events)
        place()
    }

    // MARK: - Pairing

    private mutating func pair(_ events: [TraceEvent]) {
        var open: [UInt64: Interval] = [:]
        func begin(_ category: Category, _ name: String, _ event: TraceEvent, _ details: [(String, String)] = []) {
            open[event.id] = Interval(
                category: category, name: name, id: event.id, start: event.time, end: event.time,
                finished: false, startThread: event.threadID, endThread: nil,
                details: details.map { (key: $0.0, value: $0.1) })
        }
        func end(_ event: TraceEvent, _ details: [(String, String)] = []) {
            guard var interval = open.removeValue(forKey: event.id) else { return }
            interval.end = max(event.time, interval.start)
            interval.finished = true
            interval.endThread = event.threadID
            interval.details += details.map { (key: $0.0, value: $0.1) }
            intervals.append(interval)
        }
        for event in events {
            switch event.kind.timelineEffect {
            case .begin(let category, let name, let details, let site):
                begin(category, name, event, details)
                open[event.id]?.site = site
            case .end(let details):
                end(event, details)
            case .endAndBegin(let category, let name, let details):
                end(event)
                begin(category, name, event, details)
            case .instant(let kind, let name, let closing):
                instants.append(Instant(kind: kind, name: name, time: event.time, thread: event.threadID))
                if let closing { end(event, closing) }
            }
        }
        // Still open when the recording stopped: pending until the end.
        for var interval in open.values.sorted(by: { $0.start < $1.start }) {
            interval.end = max(duration, interval.start)
            intervals.append(interval)
        }
        intervals.sort { ($0.start, $0.id) < ($1.start, $1.id) }
    }

    // MARK: - Placement

    /// Puts thread work (jobs, deliveries, sync spans) that began and ended on
    /// one thread, nesting properly with the other work there, on that thread's
    /// lane; packs the rest into rows.
    private mutating func place() {
        var onThread: [UInt64: [Int]] = [:]
        for (index, interval) in intervals.enumerated()
        where interval.category.runsOnOneThread && (interval.endThread ?? interval.startThread) == interval.startThread {
            onThread[interval.startThread, default: []].append(index)
        }
        var placed = Set<Int>()
        for indices in onThread.values {
            let ordered = indices.sorted {
                (intervals[$0].start, UInt64.max - intervals[$0].end) < (intervals[$1].start, UInt64.max - intervals[$1].end)
            }
            var stack: [UInt64] = []  // ends of the enclosing intervals
            for index in ordered {
                let interval = intervals[index]
                while let top = stack.last, top <= interval.start { stack.removeLast() }
                if let top = stack.last, interval.end > top { continue }  // overlaps without nesting
                intervals[index].placement = .thread(depth: stack.count)
                stack.append(interval.end)
                placed.insert(index)
            }
        }
        var rowEnds: [Category: [UInt64]] = [:]
        for index in intervals.indices where !placed.contains(index) {
            let interval = intervals[index]
            var ends = rowEnds[interval.category, default: []]
            let row = ends.firstIndex { $0 <= interval.start } ?? min(ends.count, Self.maximumRows - 1)
            if row == ends.count { ends.append(interval.end) } else { ends[row] = max(ends[row], interval.end) }
            rowEnds[interval.category] = ends
            intervals[index].placement = .detached(row: row)
        }
    }

    /// Beyond this many rows per category, bars share the last row: a picture
    /// of a thousand waits is read for its density, not bar by bar.
    static let maximumRows = 8

    // MARK: - Questions the exports ask

    /// How many intervals of `category` were open at once: the peak, and the
    /// time-weighted average over the whole trace.
    func concurrency(of category: Category) -> (peak: Int, average: Double) {
        var changes: [(time: UInt64, delta: Int)] = []
        for interval in intervals where interval.category == category {
            changes.append((interval.start, 1))
            changes.append((interval.end, -1))
        }
        // Ends before starts at the same instant: back-to-back work is not overlap.
        changes.sort { ($0.time, $0.delta) < ($1.time, $1.delta) }
        var (current, peak, area, last) = (0, 0, 0.0, UInt64(0))
        for change in changes {
            area += Double(current) * Double(change.time &- last)
            last = change.time
            current += change.delta
            peak = max(peak, current)
        }
        return (peak, duration == 0 ? 0 : area / Double(duration))
    }
}
