import ConcurrencyToolkit

/// Keeps every report of one kind that its handler receives, in order.
package final class ReportRecorder<Report: ConcurrencyReport>: Sendable {
    private let recorded = Lock<[Report]>([])

    package init() {}

    package var handler: ReportHandler<Report> {
        .custom { [recorded] report in recorded.withLock { $0.append(report) } }
    }

    package var reports: [Report] { recorded.withLock { $0 } }
}

/// Runs `operation` in a scope of `Report`'s router and returns its result
/// with every report (that `accepting` takes) the scope received.
package func withReportsRecorded<Report: ConcurrencyReport, Result>(
    _ kind: Report.Type, accepting: (@Sendable (Report) -> Bool)? = nil,
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> Result
) async rethrows -> (result: Result, reports: [Report]) {
    let recorder = ReportRecorder<Report>()
    let result = try await Report.reporting.withScope(
        recorder.handler, accepting: accepting, isolation: isolation, operation: operation)
    return (result, recorder.reports)
}
