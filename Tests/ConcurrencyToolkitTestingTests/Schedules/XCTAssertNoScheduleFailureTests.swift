import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import TestSupport
import XCTest

final class XCTAssertNoScheduleFailureTests: FailureInterceptingTestCase {
    func testOneFailurePerFailingScheduleUpToTheLimit() async {
        intercepted = []
        let exploration = await XCTAssertNoScheduleFailure(100, failureLimit: 3) { try await withdrawTwiceAtOnce() }
        let failures = intercepted ?? []
        intercepted = nil
        XCTAssertEqual(failures.count, 3)
        XCTAssertEqual(exploration.failures.count, 3)
        XCTAssertTrue(failures.allSatisfy { $0.contains("replaySchedule(seed: 0x") && $0.contains("overdrawn") }, "\(failures)")
    }

    func testACorrectBodyRecordsNothing() async {
        let exploration = await XCTAssertNoScheduleFailure(100) { try await withdrawTwiceAtOnce(correct: true) }
        XCTAssertEqual(exploration.schedulesRun, 100)
    }
}
