/// The plain-text statistics: concurrency over time, time per kind, the
/// monitored actors, longest waits, what was pending at the end, misuse.
enum TraceSummary {
    static func render(_ timeline: TraceTimeline) -> String {
        var out = "Trace: \(TraceFormatting.duration(timeline.duration)), \(timeline.eventCount) events, "
            + "\(timeline.threads.count) threads\n"
        if timeline.discardedEventCount > 0 {
            out += "  \(timeline.discardedEventCount) late events (after the recording ended) were discarded\n"
        }

        out += "\nBy kind                    count      total       mean        max   at once: peak  average\n"
        for category in TraceTimeline.Category.allCases {
            let durations = timeline.intervals.filter { $0.category == category }.map(\.duration)
            guard !durations.isEmpty else { continue }
            let total = durations.reduce(0, &+)
            let (peak, average) = timeline.concurrency(of: category)
            out += pad(category.label, 24) + padLeft("\(durations.count)", 7)
                + padLeft(TraceFormatting.duration(total), 11)
                + padLeft(TraceFormatting.duration(total / UInt64(durations.count)), 11)
                + padLeft(TraceFormatting.duration(durations.max() ?? 0), 11)
                + padLeft("\(peak)", 15) + padLeft(TraceFormatting.decimal(average, places: 2), 9) + "\n"
        }

        // By role, as the SVG rows: a Dispatch thread that ran the main queue
        // and later a lane's jobs is counted under main for the first only.
        out += "\nRows: what threads were doing (time running toolkit work or spans)\n"
        for row in timeline.rows {
            let busy = timeline.intervals
                .filter { $0.role == row.role && $0.placement == .onRow(depth: 0) }
                .map(\.duration).reduce(0, &+)
            let served = row.threads.count == 1 ? "" : "  (\(row.threads.count) OS threads)"
            out += "  " + pad(row.name, 30) + padLeft(TraceFormatting.duration(busy), 11) + served + "\n"
        }

        out += actorTable(timeline)

        let waits = timeline.intervals.filter(\.category.isWaiting).sorted { $0.duration > $1.duration }.prefix(5)
        if !waits.isEmpty {
            out += "\nLongest waits\n"
            for wait in waits {
                out += "  " + padLeft(TraceFormatting.duration(wait.duration), 10) + "  \(wait.name)"
                    + (wait.finished ? "" : " (still waiting at the end)") + "\n"
            }
        }

        let pending = timeline.intervals.filter { !$0.finished }
        out += "\nPending at the end: \(pending.isEmpty ? "nothing" : "\(pending.count)")\n"
        for interval in pending {
            out += "  \(interval.pendingDescription), for \(TraceFormatting.duration(interval.duration))\n"
        }

        for kind in TraceTimeline.Instant.Kind.allCases {
            guard let heading = kind.look.summaryHeading else { continue }
            let instants = timeline.instants.filter { $0.kind == kind }
            guard !instants.isEmpty else { continue }
            out += "\n\(heading): \(instants.count)\n"
            for instant in instants { out += "  \(instant.name)\n" }
        }
        return out
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    static func padLeft(_ text: String, _ width: Int) -> String {
        text.count >= width ? " " + text : String(repeating: " ", count: width - text.count) + text
    }
}
