/// Every trace event kind, described once: what it does to the timeline
/// (opens, closes or marks something), the row it is drawn in, that row's
/// name, colour and JSON category, and what the summary says of it.
/// `TraceTimeline`, `SVGTimeline`, `ChromeTraceJSON` and `TraceSummary` read
/// this file and switch on no event kind themselves.
///
/// Adding a kind (a stall, say): its case in ``TraceEvent/Kind``, its line in
/// `timelineEffect` below, and, if it needs a row or mark of its own, a case
/// in `TraceTimeline.Category` or `TraceTimeline.Instant.Kind` with its
/// `Look`. The exports then draw, export and summarize it with no further edit.
/// (If it ends something badly, also its line in `outcome`; if it makes its
/// thread serve a role of its own, as a job start makes it a lane, in `entersRole`.)
extension TraceEvent.Kind {
    /// What this event does to the timeline.
    var timelineEffect: TimelineEffect {
        switch self {
        case .jobQueued(let executor):
            .begin(.jobQueued, name: "queued on \(executor)", details: [("executor", executor)])
        case .jobStarted(let executor, let lane):
            .endAndBegin(.jobRunning, name: "\(executor) job", details: [("executor", executor), ("lane", "\(lane)")])
        case .jobFinished(let failed):
            .end(details: [("outcome", failed ? "threw" : "returned")])
        case .jobDiscarded(let reason):
            .end(details: [("outcome", "discarded: \(reason)")])
        case .continuationCreated(let site):
            .begin(.continuationWait, name: "wait at \(site.fileID):\(site.line)", details: [("site", "\(site)")], site: site)
        case .continuationResumed:
            .end(details: [("outcome", "resumed")])
        case .continuationTimedOut:
            .end(details: [("outcome", "timed out")])
        case .continuationCancelled:
            .end(details: [("outcome", "cancelled")])
        case .continuationMisused(let misuse):
            // A leak also ends the wait it belongs to.
            .instant(.misuse, name: "\(misuse)", closing: misuse.kind == .leaked ? [("outcome", "leaked")] : nil)
        case .deliveryStarted(let kind, let count):
            .begin(
                .delivery,
                name: kind == .progress
                    ? "progress delivery (\(count) \(count == 1 ? "value" : "values"))"
                    : "batch delivery (\(count) \(count == 1 ? "item" : "items"))",
                details: [("kind", kind.rawValue), ("count", "\(count)")])
        case .deliveryFinished, .childFinished, .spanFinished:
            .end(details: [])
        case .childStarted(let index):
            .begin(.child, name: "child #\(index)", details: [("index", "\(index)")])
        case .spanStarted(let name):
            .begin(.span, name: name, details: [])
        case .asyncSpanStarted(let name):
            .begin(.asyncSpan, name: name, details: [])
        case .marker(let name):
            .instant(.marker, name: name, closing: nil)
        case .stalled(let stall):
            .instant(.stall, name: "\(stall)", closing: nil)
        case .actorContended(let contention):
            .instant(.contention, name: "\(contention)", closing: nil)
        case .actorJobQueued:
            .none
        case .actorJobStarted(let actor, let depth, let waited):
            .begin(
                .actorJob, name: "\(actor) job",
                details: [("actor", actor), ("waited", TraceFormatting.duration(waited)), ("still queued", "\(depth)")])
        case .actorJobFinished(_, let ran):
            .end(details: [("ran", TraceFormatting.duration(ran))])
        }
    }
}

/// What one event does to the timeline; events pair up by id.
enum TimelineEffect {
    /// Opens an interval drawn in `category`'s row. `site`: where a wait
    /// was created, for the summary's pending list.
    case begin(TraceTimeline.Category, name: String, details: [(String, String)], site: CallSite? = nil)
    /// Closes the interval with the event's id, adding `details`.
    case end(details: [(String, String)])
    /// Closes the open interval and opens the next one under the same id
    /// (a queued job starting to run).
    case endAndBegin(TraceTimeline.Category, name: String, details: [(String, String)])
    /// A point in time on the emitting thread; `closing`, when not nil, also
    /// ends the interval with the same id, with these details.
    case instant(TraceTimeline.Instant.Kind, name: String, closing: [(String, String)]?)
    /// Nothing drawn by itself: it only changes a monitored actor's counters
    /// (TraceTimeline+Actors.swift).
    case none
}

extension TraceEvent.Kind {
    /// What this event changes in a monitored actor's track (its queue depth,
    /// its jobs running, the summary's figures), or nil: read by
    /// TraceTimeline+Actors.swift.
    var actorChange: TraceTimeline.ActorChange? {
        switch self {
        case .actorJobQueued(let actor, let depth): .init(actor: actor, depth: depth)
        case .actorJobStarted(let actor, let depth, let waited): .init(actor: actor, depth: depth, running: 1, waited: waited)
        case .actorJobFinished(let actor, let ran): .init(actor: actor, running: 0, ran: ran)
        default: nil
        }
    }
}

extension TraceTimeline.Category {
    /// How this row looks and reads in every export.
    struct Look {
        /// For the legend, the SVG row label and the summary.
        var label: String
        /// Short, stable name for the JSON `cat` field and the SVG `data-kind`.
        var key: String
        /// Bar colour.
        var color: String
        /// Colour of a label written on a bar (dark on light bars).
        var textColor = "#ffffff"
        /// A wait, not work: it never occupies a thread's lane, and the
        /// summary lists it among the longest waits.
        var isWaiting = false
        /// Can be drawn as running on one thread: not a wait, and not task
        /// time (a child task or an async span may suspend and hop threads;
        /// drawing them on a thread would claim the thread was busy meanwhile).
        var runsOnOneThread = false
        /// In the SVG legend only when the trace has some: a kind added after
        /// traces without it were published, whose pictures stay as they were.
        var inLegendOnlyWhenUsed = false
    }

    var look: Look {
        switch self {
        case .jobRunning: Look(label: "blocking job running", key: "job", color: "#4c78a8", runsOnOneThread: true)
        case .jobQueued:
            Look(label: "blocking job queued", key: "queue", color: "#eeca3b", textColor: "#000000", isWaiting: true)
        case .continuationWait: Look(label: "continuation wait", key: "continuation", color: "#b279a2", isWaiting: true)
        // Task time: the pump awaits the handler on its own actor (the main
        // actor, often), so the thread that began and ended it was free meanwhile.
        case .delivery: Look(label: "progress/batch delivery", key: "delivery", color: "#54a24b")
        case .child: Look(label: "concurrentMap child", key: "child", color: "#72b7b2")
        case .span: Look(label: "span", key: "span", color: "#f58518", runsOnOneThread: true)
        case .asyncSpan: Look(label: "async span", key: "async-span", color: "#fdbf6f", textColor: "#000000")
        case .actorJob:
            Look(label: "monitored actor job", key: "actor-job", color: "#9467bd", runsOnOneThread: true, inLegendOnlyWhenUsed: true)
        }
    }

    var label: String { look.label }
    var key: String { look.key }
    var isWaiting: Bool { look.isWaiting }
    var runsOnOneThread: Bool { look.runsOnOneThread }
}

extension TraceTimeline.Instant.Kind {
    /// How this mark looks and reads in every export.
    struct Look {
        /// For the legend.
        var label: String
        /// For the JSON `cat` field and the SVG tooltip.
        var key: String
        var color: String
        /// The summary's section heading (`Continuation misuse: 2`), or nil
        /// when the summary does not list these.
        var summaryHeading: String?
    }

    var look: Look {
        switch self {
        case .marker: Look(label: "marker", key: "marker", color: "#333333", summaryHeading: nil)
        case .misuse:
            Look(label: "continuation misuse", key: "misuse", color: "#e45756", summaryHeading: "Continuation misuse")
        case .stall: Look(label: "stall (main actor or pool)", key: "stall", color: "#9d0208", summaryHeading: "Stalls")
        case .contention:
            Look(label: "actor contention", key: "contention", color: "#d62728", summaryHeading: "Actor contention")
        }
    }
}

extension TraceTimeline.Interval {
    /// The summary's line for an interval still open when the recording ended.
    var pendingDescription: String {
        site.map { "continuation created at \($0)" } ?? "\(category.label): \(name)"
    }
}

extension TraceEvent.Kind {
    /// The role this event puts its thread in (an executor lane, a monitored
    /// actor), until the interval it begins ends: everything the thread emits
    /// meanwhile is that role's work, whatever the thread did before or does after.
    var entersRole: TraceTimeline.Role? {
        switch self {
        case .jobStarted(let executor, let lane): .lane(executor: executor, index: lane)
        case .actorJobStarted(let actor, _, _): .actor(label: actor)
        default: nil
        }
    }

    /// How the interval this event ends went, when not simply well (returned,
    /// resumed, finished): shown on the bar without hovering. Kinds that end
    /// nothing, or end it well, have none.
    var outcome: TraceTimeline.Outcome? {
        switch self {
        case .jobFinished(let failed): failed ? .threw : nil
        case .jobDiscarded: .discarded
        case .continuationTimedOut: .timedOut
        case .continuationCancelled: .cancelled
        case .continuationMisused(let misuse): misuse.kind == .leaked ? .leaked : nil
        default: nil
        }
    }
}

extension TraceTimeline.Outcome {
    /// How this outcome is marked on a bar, in the legend and after the bar's name.
    struct Look {
        /// For the legend and after the bar's name (`file-io job — threw`).
        var label: String
        /// For the SVG `data-outcome` attribute and pattern id.
        var key: String
        /// Outline and stripes.
        var color: String
        /// Stripe angle, so outcomes differ in more than colour.
        var angle: Int
    }

    var look: Look {
        switch self {
        case .threw: Look(label: "threw", key: "threw", color: "#d62728", angle: 45)
        case .timedOut: Look(label: "timed out", key: "timed-out", color: "#8c2d04", angle: -45)
        case .cancelled: Look(label: "cancelled", key: "cancelled", color: "#444444", angle: 0)
        case .discarded: Look(label: "never ran", key: "discarded", color: "#777777", angle: 90)
        case .leaked: Look(label: "leaked", key: "leaked", color: "#e45756", angle: 45)
        }
    }
}

extension TraceTimeline.Role {
    /// The row's name: `main`, `io lane 3`, or the thread's own name.
    func name(threads: [UInt64: TraceThread]) -> String {
        switch self {
        case .main: "main"
        case .lane(let executor, let index): "\(executor) lane \(index)"
        case .actor(let label): "actor \(label)"
        case .thread(let id): threads[id]?.name ?? "thread · \(id)"
        }
    }
}
