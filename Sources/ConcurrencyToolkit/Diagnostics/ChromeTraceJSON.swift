/// Writes a timeline in Chrome's trace-event format ("JSON Object Format"),
/// which Perfetto and `chrome://tracing` open.
///
/// - Work placed on a thread → one complete event (`"ph":"X"`) on that tid,
///   so the viewer shows one track per thread with nested slices.
/// - Waits and work that crossed threads → an async pair (`"b"`/`"e"`, same
///   `cat` and `id`), shown on the process's async tracks.
/// - Markers and misuse → thread-scoped instants (`"i"`, `"s":"t"`).
/// - Thread and process names → metadata (`"M"`), main thread sorted first.
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
        for (order, thread) in timeline.threads.enumerated() {
            add([("ph", string("M")), ("pid", pid), ("tid", "\(thread.id)"), ("name", string("thread_name")),
                 ("args", args([(key: "name", value: thread.name)]))])
            add([("ph", string("M")), ("pid", pid), ("tid", "\(thread.id)"), ("name", string("thread_sort_index")),
                 ("args", "{\"sort_index\":\(order)}")])
        }
        for interval in timeline.intervals {
            var details = interval.details
            if !interval.finished { details.append((key: "unfinished", value: "still running when the recording ended")) }
            let common: [(String, String)] = [
                ("name", string(interval.name)), ("cat", string(interval.category.key)), ("pid", pid),
            ]
            switch interval.placement {
            case .thread:
                add(common + [("ph", string("X")), ("tid", "\(interval.startThread)"),
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
                 ("ph", string("i")), ("s", string("t")), ("pid", pid), ("tid", "\(instant.thread)"),
                 ("ts", TraceFormatting.microseconds(instant.time))])
        }
        return "{\"displayTimeUnit\":\"ms\",\"otherData\":{\"discardedEventCount\":\(timeline.discardedEventCount)},"
            + "\"traceEvents\":[\n" + lines.joined(separator: ",\n") + "\n]}\n"
    }
}
