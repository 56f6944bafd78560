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
    }

    var look: Look {
        switch self {
        case .jobRunning: Look(label: "blocking job running", key: "job", color: "#4c78a8", runsOnOneThread: true)
        case .jobQueued:
            Look(label: "blocking job queued", key: "queue", color: "#eeca3b", textColor: "#000000", isWaiting: true)
        case .continuationWait: Look(label: "continuation wait", key: "continuation", color: "#b279a2", isWaiting: true)
        case .delivery: Look(label: "progress/batch delivery", key: "delivery", color: "#54a24b", runsOnOneThread: true)
        case .child: Look(label: "concurrentMap child", key: "child", color: "#72b7b2")
        case .span: Look(label: "span", key: "span", color: "#f58518", runsOnOneThread: true)
        case .asyncSpan: Look(label: "async span", key: "async-span", color: "#fdbf6f", textColor: "#000000")
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
        }
    }
}

extension TraceTimeline.Interval {
    /// The summary's line for an interval still open when the recording ended.
    var pendingDescription: String {
        site.map { "continuation created at \($0)" } ?? "\(category.label): \(name)"
    }
}
