/// A ``Trace`` turned into what the exports draw: intervals (begin and end
/// paired by id) placed either on a row or among the waits, plus instants.
/// Pure: built and tested without threads.
///
/// Rows are roles, not OS threads: what a thread was doing when it emitted
/// an event (`main`, `io lane 3`, or just itself). Dispatch moves its worker
/// threads between the main queue, executor lanes and other queues, so a row
/// named after an OS thread's first role would show a lane's blocking jobs
/// as main-thread work. The main queue and each lane are serial, so their
/// rows nest like one thread's; every other thread is its own row.
struct TraceTimeline {
    /// A row group of bars; how each looks and reads is in TraceEventKinds.swift.
    enum Category: CaseIterable {
        case jobRunning, jobQueued, continuationWait, delivery, child, span, asyncSpan, actorJob
    }

    /// What a thread was doing when it emitted an event: the row it is drawn in.
    enum Role: Hashable {
        /// The process's main thread, or any thread while it ran the main queue.
        case main
        /// A thread while it ran a blocking job of `executor`'s lane `index`.
        case lane(executor: String, index: Int)
        /// A thread while it ran a job of the monitored actor `label` (serial,
        /// like a lane): the actor's row, with its queue depth under it.
        case actor(label: String)
        /// Any other thread, doing anything else.
        case thread(UInt64)
    }

    /// One row of the timeline: a role, and the OS threads that served it.
    struct Row: Equatable {
        var role: Role
        var name: String
        /// In order of first event.
        var threads: [UInt64]
    }

    /// How an interval ended when not simply well; how each looks is in TraceEventKinds.swift.
    enum Outcome: CaseIterable { case threw, timedOut, cancelled, discarded, leaked }

    enum Placement: Equatable {
        /// Ran in one role on one thread, nested `depth` levels inside other work in its row.
        case onRow(depth: Int)
        /// A wait, or work that moved between threads or overlapped other work
        /// on its row without nesting: drawn in `row` of its category.
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
        /// What the start and end threads were doing then: the row.
        var role: Role
        var endRole: Role?
        var details: [(key: String, value: String)]
        var placement: Placement = .detached(row: 0)
        /// For pending continuations: where they were created.
        var site: CallSite?
        /// Nil when it ended well (or has not ended).
        var outcome: Outcome?

        var duration: UInt64 { end &- start }
        var isOnRow: Bool { if case .onRow = placement { true } else { false } }
    }

    struct Instant {
        /// How each looks and reads is in TraceEventKinds.swift.
        enum Kind: CaseIterable { case marker, misuse, stall, contention }
        var kind: Kind
        var name: String
        var time: UInt64
        var thread: UInt64
        var role: Role
    }

    var threads: [TraceThread]
    var duration: UInt64
    var eventCount: Int
    var discardedEventCount: Int
    var intervals: [Interval] = []
    var instants: [Instant] = []
    /// Main first, then the lanes (by executor, then index), the monitored
    /// actors, then other threads; only roles with work or instants drawn in
    /// them, and every monitored actor.
    var rows: [Row] = []
    /// Each monitored actor's jobs and queue over time, in order of first event.
    var actors: [ActorTrack] = []

    init(_ trace: Trace) {
        threads = trace.threads
        duration = max(trace.duration, trace.events.map(\.time).max() ?? 0)
        eventCount = trace.events.count
        discardedEventCount = trace.discardedEventCount
        let servedBy = pair(trace.events)
        place()
        actors = Self.actorTracks(trace.events, end: duration)
        rows = makeRows(servedBy)
    }

    // MARK: - Pairing

    /// Pairs events into intervals and gives each event its role; returns
    /// the OS threads that served each role, in order of first event.
    private mutating func pair(_ events: [TraceEvent]) -> [Role: [UInt64]] {
        var open: [UInt64: Interval] = [:]
        let mainThreads = Set(threads.filter(\.isMain).map(\.id))
        var laneOfThread: [UInt64: (role: Role, id: UInt64)] = [:]
        var servedBy: [Role: [UInt64]] = [:]
        func role(of event: TraceEvent) -> Role {
            if let entered = event.kind.entersRole { laneOfThread[event.threadID] = (entered, event.id) }
            let role: Role =
                if let lane = laneOfThread[event.threadID] { lane.role }
                else if event.onMain || mainThreads.contains(event.threadID) { .main }
                else { .thread(event.threadID) }
            if !servedBy[role, default: []].contains(event.threadID) { servedBy[role, default: []].append(event.threadID) }
            return role
        }
        /// The job with this id ended: its thread is no longer that lane.
        func leaveLane(_ id: UInt64) {
            for (thread, lane) in laneOfThread where lane.id == id { laneOfThread[thread] = nil }
        }
        func begin(_ category: Category, _ name: String, _ event: TraceEvent, _ role: Role, _ details: [(String, String)]) {
            open[event.id] = Interval(
                category: category, name: name, id: event.id, start: event.time, end: event.time,
                finished: false, startThread: event.threadID, endThread: nil, role: role, endRole: nil,
                details: details.map { (key: $0.0, value: $0.1) })
        }
        func end(_ event: TraceEvent, _ role: Role, _ details: [(String, String)] = []) {
            guard var interval = open.removeValue(forKey: event.id) else { return }
            interval.end = max(event.time, interval.start)
            interval.finished = true
            interval.endThread = event.threadID
            interval.endRole = role
            interval.outcome = event.kind.outcome
            interval.details += details.map { (key: $0.0, value: $0.1) }
            intervals.append(interval)
        }
        for event in events {
            let role = role(of: event)
            switch event.kind.timelineEffect {
            case .begin(let category, let name, let details, let site):
                begin(category, name, event, role, details)
                open[event.id]?.site = site
            case .end(let details):
                end(event, role, details)
                leaveLane(event.id)
            case .endAndBegin(let category, let name, let details):
                end(event, role)
                begin(category, name, event, role, details)
            case .instant(let kind, let name, let closing):
                instants.append(Instant(kind: kind, name: name, time: event.time, thread: event.threadID, role: role))
                if let closing {
                    end(event, role, closing)
                    leaveLane(event.id)
                }
            case .none:
                break
            }
        }
        // Still open when the recording stopped: pending until the end.
        for var interval in open.values.sorted(by: { $0.start < $1.start }) {
            interval.end = max(duration, interval.start)
            intervals.append(interval)
        }
        intervals.sort { ($0.start, $0.id) < ($1.start, $1.id) }
        return servedBy
    }

    private func makeRows(_ servedBy: [Role: [UInt64]]) -> [Row] {
        var used: [Role] = []
        for interval in intervals where interval.isOnRow && !used.contains(interval.role) { used.append(interval.role) }
        for instant in instants where !used.contains(instant.role) { used.append(instant.role) }
        for actor in actors where !used.contains(.actor(label: actor.label)) { used.append(.actor(label: actor.label)) }
        let byID = Dictionary(threads.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let threadOrder = Dictionary(threads.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        var executors: [String] = []
        for case .lane(let executor, _) in used where !executors.contains(executor) { executors.append(executor) }
        func order(_ role: Role) -> (Int, Int, Int) {
            switch role {
            case .main: (0, 0, 0)
            case .lane(let executor, let index): (1, executors.firstIndex(of: executor) ?? 0, index)
            case .actor(let label): (2, actors.firstIndex { $0.label == label } ?? Int.max, 0)
            case .thread(let id): (3, threadOrder[id] ?? Int.max, Int(truncatingIfNeeded: id))
            }
        }
        return used.sorted { order($0) < order($1) }.map {
            Row(role: $0, name: $0.name(threads: byID), threads: servedBy[$0] ?? [])
        }
    }

    // MARK: - Placement

    /// Puts thread work (jobs, sync spans) that began and ended on
    /// one thread in one role, nesting properly with the other work in that
    /// role's row, on the row; packs the rest into rows of its category.
    private mutating func place() {
        var onThread: [Role: [Int]] = [:]
        for (index, interval) in intervals.enumerated()
        where interval.category.runsOnOneThread && (interval.endThread ?? interval.startThread) == interval.startThread
            && (interval.endRole ?? interval.role) == interval.role
        {
            onThread[interval.role, default: []].append(index)
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
                intervals[index].placement = .onRow(depth: stack.count)
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
