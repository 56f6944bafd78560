import ConcurrencyToolkit

/// Runs `operation` with the stall detector on and returns its result
/// together with every `ConcurrencyStall` of at least `threshold` that
/// happened while it ran: one entry per stall, its final (ended) report.
///
/// ```swift
/// @Test @MainActor func thumbnailsDoNotBlockTheMainActor() async throws {
///     let (_, stalls) = await withConcurrencyStallsRecorded(threshold: .milliseconds(200)) {
///         await gallery.loadThumbnails()
///     }
///     #expect(stalls.isEmpty, "\(stalls)")
/// }
/// ```
///
/// A stall still lasting two probe intervals after `operation` is returned
/// as ongoing (`isOngoing`). A stall of another test running at the same
/// time is recorded too: see <doc:StallsAndContentionInTests>.
public func withConcurrencyStallsRecorded<Result>(
    threshold: Duration = StallDetector.defaultThreshold,
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> Result
) async rethrows -> (result: Result, stalls: [ConcurrencyStall]) {
    let recorder = ReportRecorder<ConcurrencyStall>()
    let result = try await StallDetector.recording(
        threshold: threshold, report: recorder.handler.report, isolation: isolation, operation: operation)
    return (result, recorder.reports.finalReports())
}

extension [ConcurrencyStall] {
    /// One report per stall, the last one made (the ended one, when it ended), in order.
    func finalReports() -> [ConcurrencyStall] {
        var result: [ConcurrencyStall] = []
        for stall in self {
            if let index = result.lastIndex(where: { $0.kind == stall.kind && $0.priority == stall.priority && $0.serial == stall.serial }) {
                result[index] = stall
            } else {
                result.append(stall)
            }
        }
        return result
    }
}

extension [ConcurrencyStall] {
    /// The stalls a test should fail on: not those the host caused
    /// (`isCausedByHost`), which say the machine was busy, not the code slow.
    package var causedByTheProgram: [ConcurrencyStall] { filter { !$0.isCausedByHost } }
}
