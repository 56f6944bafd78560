extension TraceSummary {
    /// The monitored actors' table, or nothing when the trace has none: per
    /// actor, the jobs that started in the recording, their wait (median,
    /// 99th percentile from the executor's own histogram, so they read as
    /// `MonitoredActorExecutor.statistics` does; the longest exact), the time
    /// spent running jobs and its share of the recording, and the deepest queue.
    static func actorTable(_ timeline: TraceTimeline) -> String {
        guard !timeline.actors.isEmpty else { return "" }
        var out = "\n" + pad("Monitored actors", 22) + padLeft("jobs", 6) + padLeft("wait p50", 11) + padLeft("p99", 11)
            + padLeft("max", 11) + padLeft("busy", 11) + padLeft("busy %", 8) + padLeft("deepest", 9) + "\n"
        for actor in timeline.actors {
            let waits = actor.waitHistogram
            let share = timeline.duration == 0 ? 0 : Double(actor.busy) / Double(timeline.duration) * 100
            out += "  " + pad(actor.label, 20) + padLeft("\(actor.jobs)", 6)
                + padLeft(TraceFormatting.duration(waits.percentile(0.5) ?? 0), 11)
                + padLeft(TraceFormatting.duration(waits.percentile(0.99) ?? 0), 11)
                + padLeft(TraceFormatting.duration(waits.largest), 11)
                + padLeft(TraceFormatting.duration(actor.busy), 11)
                + padLeft(TraceFormatting.decimal(min(share, 100), places: 1), 8) + padLeft("\(actor.maxDepth)", 9) + "\n"
        }
        return out
    }
}
