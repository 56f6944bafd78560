import ConcurrencyToolkit

/// Runs `operation` with actor contention watched and returns its result
/// together with every `ActorContention` whose longest wait reached
/// `threshold` while it ran, on actors on a `MonitoredActorExecutor`.
///
/// ```swift
/// let (_, contentions) = await withActorContentionRecorded(threshold: .milliseconds(50)) {
///     await gallery.loadThumbnails()
/// }
/// #expect(contentions.isEmpty, "\(contentions)")
/// ```
///
/// One report per episode that ended by two looks after `operation`. An
/// episode of another test running at the same time is recorded too: see
/// <doc:StallsAndContentionInTests>.
public func withActorContentionRecorded<Result>(
    threshold: Duration = ActorContentionDetector.defaultThreshold,
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> Result
) async rethrows -> (result: Result, contentions: [ActorContention]) {
    let recorder = ReportRecorder<ActorContention>()
    let result = try await ActorContentionDetector.recording(
        threshold: threshold, report: recorder.handler.report, isolation: isolation, operation: operation)
    return (result, recorder.reports)
}
