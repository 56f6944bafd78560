import ConcurrencyToolkit

/// Runs `operation` with actor contention watched and returns its result
/// together with every `ActorContention` whose longest wait reached
/// `threshold` while it ran: one report per episode, when it ends (and, for
/// an episode of 10 s or more, ongoing ones while it lasts: their
/// `isOngoing` is true).
///
/// ```swift
/// @Test func thumbnailsDoNotQueueBehindTheCache() async throws {
///     let (_, contentions) = await withActorContentionRecorded(threshold: .milliseconds(50)) {
///         await gallery.loadThumbnails()
///     }
///     #expect(contentions.isEmpty, "\(contentions)")
/// }
/// ```
///
/// Only actors on a `MonitoredActorExecutor` are watched. It starts the
/// watcher if it is not running (and stops it after, unless the process
/// started it too), runs `operation`, then waits two looks so an episode
/// that ended just before is reported. An episode still going on then is
/// not returned.
///
/// Contention belongs to the process, not to a task: an episode of an
/// actor another test uses at the same time is recorded too. Check the
/// `label`s for your own actors, or run the test alone.
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
