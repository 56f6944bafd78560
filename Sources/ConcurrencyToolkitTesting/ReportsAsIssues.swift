import ConcurrencyToolkit
import Testing
import XCTest

/// The body of a Swift Testing trait for any report kind: runs the test
/// with `record` (the kind's recorder), records each report as an issue,
/// then rethrows what the test threw.
///
/// Each issue's error is the report, at `location(report)` or, when that is
/// `nil`, at the test's own declaration (a report with no line of the
/// user's to point at would otherwise name this file).
package func recordingReportsAsIssues<Report: ConcurrencyReport>(
    of test: Test, at location: (Report) -> SourceLocation? = { _ in nil },
    performing function: @Sendable () async throws -> Void,
    recordedBy record: (_ body: () async -> Result<Void, any Error>) async -> (Result<Void, any Error>, [Report])
) async throws {
    // `record` never keeps the body past its return.
    let (outcome, reports) = await withoutActuallyEscaping(function) { function in
        await record {
            do {
                try await function()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
    }
    for report in reports {
        Issue.record(report, sourceLocation: location(report) ?? test.sourceLocation)
    }
    try outcome.get()
}

/// The body of an XCTest assertion for any report kind: one failure per
/// report, at `file`/`line`, as `prefix` and the report, or the caller's
/// message and the report.
package func failForEach<Report: ConcurrencyReport>(
    _ reports: [Report], prefix: String = "", message: String, file: StaticString, line: UInt
) {
    for report in reports {
        XCTFail(message.isEmpty ? "\(prefix)\(report)" : "\(message): \(report)", file: file, line: line)
    }
}
