import ConcurrencyToolkit
import Testing
import XCTest

/// The body of a Swift Testing trait for any report kind: runs the test with
/// `record`, records each report as an issue (at `location`, else at the
/// test's declaration rather than this file), then rethrows what the test threw.
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

/// The body of an XCTest assertion: one failure per report, at `file`/`line`.
package func failForEach<Report: ConcurrencyReport>(
    _ reports: [Report], prefix: String = "", message: String, file: StaticString, line: UInt
) {
    for report in reports {
        XCTFail(message.isEmpty ? "\(prefix)\(report)" : "\(message): \(report)", file: file, line: line)
    }
}
