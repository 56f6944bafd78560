/// Runs `operation` while recording what the toolkit does for it, and returns
/// its result with the ``Trace``.
///
/// ```swift
/// let (report, trace) = try await withTraceRecording {
///     try await squeezer.compress(folder)
/// }
/// try trace.chromeTraceJSON().write(toFile: "squeeze.json", atomically: true, encoding: .utf8)   // open in ui.perfetto.dev
/// try trace.svgTimeline().write(toFile: "squeeze.svg", atomically: true, encoding: .utf8)         // open in a browser
/// print(trace.summary())
/// ```
///
/// Recorded: blocking jobs (queued, running, on which lane), continuation waits
/// and misuse, progress and batch deliveries, `concurrentMap` children, and your
/// own ``span(_:_:)``s and ``marker(_:)``s — in this task, its child tasks, the
/// `Task { }`s it starts, and the toolkit jobs submitted from any of them.
///
/// - If `operation` throws, the error is rethrown and the trace is lost; use
///   ``TraceRecorder`` to keep it (`recorder.trace` after the `catch`).
/// - Nothing is recorded after `operation` returns: events from work that
///   outlives it are dropped and counted in ``Trace/discardedEventCount``.
/// - Parallel recordings in different tasks do not see each other's events,
///   except what belongs to no task: stall and contention reports from a
///   detector started for the process, and the jobs of monitored actors
///   created outside any recording, which every recording running gets.
public func withTraceRecording<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> Result
) async rethrows -> (result: Result, trace: Trace) {
    let recorder = TraceRecorder()
    let result = try await recorder.record(isolation: isolation, operation)
    return (result, recorder.trace)
}
