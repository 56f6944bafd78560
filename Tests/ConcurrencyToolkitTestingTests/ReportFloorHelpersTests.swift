@testable import ConcurrencyToolkit
@testable import ConcurrencyToolkitTesting
import Testing
import TestSupport
import XCTest

/// A kind registered only in these tests: the generic testing helpers carry it.
struct Overdue: ConcurrencyReport, Hashable {
    var job: String
    var seconds: Int
    var description: String { "\(job) is \(seconds) s overdue" }

    static let reporting = ReportRouter<Overdue>(
        handlerName: "OverdueHandler", banner: "OVERDUE", scopedAlternative: "withOverdueHandler",
        scoping: .whileActive)
    var rateLimitKey: String { job }
}

/// What a kind's three helpers would be, each in a few lines over the floor.
func withOverdueRecorded<Result>(
    atLeast seconds: Int, isolation: isolated (any Actor)? = #isolation, _ operation: () async throws -> Result
) async rethrows -> (result: Result, overdue: [Overdue]) {
    let (result, overdue) = try await withReportsRecorded(
        Overdue.self, accepting: { $0.seconds >= seconds }, isolation: isolation, operation)
    return (result, overdue)
}

/// Serialized: a while-active scope receives every report delivered meanwhile, by any test.
@Suite(.serialized) struct ReportFloorHelpersTests {
    @Test func theRecorderKeepsWhatItsScopeAccepts() async {
        let (value, overdue) = await withOverdueRecorded(atLeast: 2) {
            Overdue.reporting.deliver(Overdue(job: "backup", seconds: 1), toProcessWide: false, intoEveryRecording: false)
            Overdue.reporting.deliver(Overdue(job: "backup", seconds: 3), toProcessWide: false, intoEveryRecording: false)
            return 42
        }
        #expect(value == 42)
        #expect(overdue == [Overdue(job: "backup", seconds: 3)])
    }

    @Test func theTraitBodyRecordsEachReportAsAnIssueAtTheTest() async throws {
        let test = try #require(Test.current)
        let seen = Collected<Overdue>()
        try await withKnownIssue {
            try await recordingReportsAsIssues(of: test, performing: {
                Overdue.reporting.deliver(Overdue(job: "sync", seconds: 9), toProcessWide: false, intoEveryRecording: false)
            }) { body in
                await withOverdueRecorded(atLeast: 5, body)
            }
        } matching: { issue in
            guard let overdue = issue.error as? Overdue else { return false }
            #expect(issue.sourceLocation == test.sourceLocation)
            seen.append(overdue)
            return true
        }
        #expect(seen.values == [Overdue(job: "sync", seconds: 9)])
    }

    @Test func theTraitBodyRethrowsAfterRecording() async throws {
        struct Failed: Error {}
        let test = try #require(Test.current)
        await #expect(throws: Failed.self) {
            try await recordingReportsAsIssues(of: test, performing: { throw Failed() }) { body in
                await withOverdueRecorded(atLeast: 5, body)
            }
        }
    }
}

final class ReportFloorAssertionTests: FailureInterceptingTestCase {
    func testFailForEachFailsOncePerReport() {
        intercepted = []
        failForEach([Overdue(job: "a", seconds: 1), Overdue(job: "b", seconds: 2)], prefix: "OVERDUE: ",
            message: "", file: #filePath, line: #line)
        failForEach([Overdue(job: "c", seconds: 3)], prefix: "OVERDUE: ", message: "nightly", file: #filePath, line: #line)
        let failures = intercepted ?? []
        intercepted = nil
        XCTAssertEqual(failures.count, 3, "\(failures)")
        XCTAssertTrue(failures[0].contains("OVERDUE: a is 1 s overdue"), "\(failures)")
        XCTAssertTrue(failures[2].contains("nightly: c is 3 s overdue"), "\(failures)")
    }
}
