/// Writes a timeline in Chrome's trace-event format ("JSON Object Format"),
/// which Perfetto and `chrome://tracing` open.
///
/// - Work placed on a row (`main`, a lane, a thread) → one complete event
///   (`"ph":"X"`) on that row's track, with nested slices.
/// - Waits and work that crossed threads → an async pair (`"b"`/`"e"`, same
///   `cat` and `id`), shown on the process's async tracks.
/// - Markers and misuse → thread-scoped instants (`"i"`, `"s":"t"`).
/// - Row and process names → metadata (`"M"`), main sorted first.
/// - Each monitored actor → a counter track (`"C"`, named `actor LABEL`)
///   with a sample per change: `queue depth` and `running` (0 or 1).
enum ChromeTraceJSON {
    static func render(_ timeline: TraceTimeline) -> String {
        let pid = "1"
        var lines: [String] = []
        func add(_ fields: [(String, String)]) {
            lines.append("{" + fields.map { "\(TraceFormatting.jsonString($0.0)):\($0.1)" }.joined(separator: ",") + "}")
        }
        func string(_ text: String) -> String { TraceFormatting.jsonString(text) }
        func args(_ details: [(key: String, value: String)]) -> String {
            "{" + details.map { "\(string($0.key)):\(string($0.value))" }.joined(separator: ",") + "}"
        }

        add([("ph", string("M")), ("pid", pid), ("tid", "0"), ("name", string("process_name")),
             ("args", args([(key: "name", value: "ConcurrencyToolkit trace")]))])
        let tids = trackIDs(timeline.rows)
        for (order, row) in timeline.rows.enumerated() {
            let tid = tids[row.role] ?? 0
            add([("ph", string("M")), ("pid", pid), ("tid", "\(tid)"), ("name", string("thread_name")),
                 ("args", args([(key: "name", value: row.name)]))])
            add([("ph", string("M")), ("pid", pid), ("tid", "\(tid)"), ("name", string("thread_sort_index")),
                 ("args", "{\"sort_index\":\(order)}")])
        }
        for interval in timeline.intervals {
            var details = interval.details
            if !interval.finished { details.append((key: "unfinished", value: "still running when the recording ended")) }
            let common: [(String, String)] = [
                ("name", string(interval.name)), ("cat", string(interval.category.key)), ("pid", pid),
            ]
            switch interval.placement {
            case .onRow:
                details.append((key: "os thread", value: "\(interval.startThread)"))
                add(common + [("ph", string("X")), ("tid", "\(tids[interval.role] ?? interval.startThread)"),
                              ("ts", TraceFormatting.microseconds(interval.start)),
                              ("dur", TraceFormatting.microseconds(interval.duration)), ("args", args(details))])
            case .detached:
                let id = string("0x" + String(interval.id, radix: 16))
                add(common + [("ph", string("b")), ("id", id), ("tid", "\(interval.startThread)"),
                              ("ts", TraceFormatting.microseconds(interval.start)), ("args", args(details))])
                add(common + [("ph", string("e")), ("id", id), ("tid", "\(interval.endThread ?? interval.startThread)"),
                              ("ts", TraceFormatting.microseconds(interval.end))])
            }
        }
        for instant in timeline.instants {
            add([("name", string(instant.name)), ("cat", string(instant.kind.look.key)),
                 ("ph", string("i")), ("s", string("t")), ("pid", pid), ("tid", "\(tids[instant.role] ?? instant.thread)"),
                 ("ts", TraceFormatting.microseconds(instant.time))])
        }
        for actor in timeline.actors {
            let name = string(TraceTimeline.Role.actor(label: actor.label).name(threads: [:]))
            for sample in actor.samples {
                add([("name", name), ("ph", string("C")), ("pid", pid), ("ts", TraceFormatting.microseconds(sample.time)),
                     ("args", "{\"queue depth\":\(sample.depth),\"running\":\(sample.running)}")])
            }
        }
        return "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"discardedEventCount\":\(timeline.discardedEventCount)},"
            + "\"traceEvents\":[\n" + lines.joined(separator: ",\n") + "\n]}\n"
    }

    /// One track per timeline row. A row that only one OS thread served, and
    /// that thread no other row, keeps the thread's id (what `top -H` shows);
    /// the main queue and lanes served by several threads get ids of their
    /// own, above any OS thread id. The OS thread is in each slice's args.
    static func trackIDs(_ rows: [TraceTimeline.Row]) -> [TraceTimeline.Role: UInt64] {
        var claims: [UInt64: Int] = [:]
        for row in rows { for thread in row.threads { claims[thread, default: 0] += 1 } }
        var ids: [TraceTimeline.Role: UInt64] = [:]
        for (index, row) in rows.enumerated() {
            if case .thread(let id) = row.role {
                ids[row.role] = id
            } else if row.threads.count == 1, let only = row.threads.first, claims[only] == 1 {
                ids[row.role] = only
            } else {
                ids[row.role] = (1 << 40) + UInt64(index)
            }
        }
        return ids
    }
}
