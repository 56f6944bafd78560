/// What happened during a recording: events, the threads they ran on, and
/// the exports that show them.
///
/// ```swift
/// let (_, trace) = try await withTraceRecording { try await squeezer.compress(folder) }
/// try trace.chromeTraceJSON().write(toFile: "run.json", atomically: true, encoding: .utf8)
/// try trace.svgTimeline(title: "squeeze \(folder)").write(toFile: "run.svg", atomically: true, encoding: .utf8)
/// print(trace.summary())
/// ```
///
/// A trace is a value: it does not change when late events arrive.
/// Something that had not ended when the recording stopped (a continuation
/// still waiting, a job still running) is shown as lasting until the end and
/// listed as pending in ``summary()``.
public struct Trace: Sendable {
    /// Every recorded event, in the order they were recorded.
    public var events: [TraceEvent]
    /// Every thread that emitted an event: the main thread first, then in order of first event.
    public var threads: [TraceThread]
    /// Nanoseconds from the start of the recording to its end.
    public var duration: UInt64
    /// Events of this recording that arrived after it ended (from work that
    /// outlived the operation) and were dropped. Process-wide events (a stall
    /// report, an actor created outside any recording) that reach it just as
    /// it ends are dropped without being counted.
    public var discardedEventCount: Int

    /// Creates a trace from recorded parts; recordings create these for you,
    /// tests may build their own.
    ///
    /// For example: `let trace = Trace(events: events, threads: threads, duration: 5_000_000, discardedEventCount: 0)`
    public init(events: [TraceEvent], threads: [TraceThread], duration: UInt64, discardedEventCount: Int) {
        self.events = events
        self.threads = threads
        self.duration = duration
        self.discardedEventCount = discardedEventCount
    }

    /// The trace in Chrome's trace-event JSON format, which Perfetto
    /// (ui.perfetto.dev → Open trace file) and `chrome://tracing` open.
    ///
    /// For example: `try trace.chromeTraceJSON().write(toFile: "run.json", atomically: true, encoding: .utf8)`
    ///
    /// One track per timeline row (`main`, each executor lane, every other
    /// thread: what a thread was doing, not which OS thread it was), with
    /// complete (`"X"`) events for work that ran there and the OS thread in
    /// their args; waits and work that moved between threads are async
    /// (`"b"`/`"e"`) slices; markers and misuse reports are instants (`"i"`).
    public func chromeTraceJSON() -> String {
        ChromeTraceJSON.render(TraceTimeline(self))
    }

    /// A self-contained SVG picture of the trace: a row per role (`main`,
    /// each executor lane, every other thread), bars coloured by kind and
    /// striped when they threw, timed out, were cancelled or never ran, a
    /// time axis, a magnified focus panel when some work is too short to
    /// read, and a legend. Any browser shows it, without scripts; hovering a
    /// bar shows its name, duration and details.
    ///
    /// ```swift
    /// try trace.svgTimeline(title: "parallel stage").write(toFile: "parallel.svg", atomically: true, encoding: .utf8)
    /// ```
    public func svgTimeline(title: String = "ConcurrencyToolkit timeline") -> String {
        SVGTimeline.render(TraceTimeline(self), title: title)
    }

    /// A plain-text report in the spirit of Instruments' statistics: how many
    /// jobs and tasks ran at once (peak, average), the time each kind spent
    /// queued, waiting and running, the longest waits, and what was still
    /// pending at the end with its source site.
    ///
    /// For example: `print(trace.summary())`
    public func summary() -> String {
        TraceSummary.render(TraceTimeline(self))
    }
}
