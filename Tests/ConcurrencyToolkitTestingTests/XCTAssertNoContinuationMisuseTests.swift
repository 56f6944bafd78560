import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import XCTest
import TestSupport

/// The failures the assertion records are intercepted while it runs, then
/// asserted on (``FailureInterceptingTestCase``).
final class XCTAssertNoContinuationMisuseTests: FailureInterceptingTestCase {
    func testDoubleResumeFailsTheTestOncePerMisuse() async {
        intercepted = []
        let value = await XCTAssertNoContinuationMisuse {
            await withSafeContinuation(ifLeaked: 0) { (c: SafeContinuation<Int, Never>) in
                c.resume(returning: 1)
                c.resume(returning: 2)
                c.resume(returning: 3)
            }
        }
        let failures = intercepted ?? []
        intercepted = nil
        XCTAssertEqual(value, 1)
        XCTAssertEqual(failures.count, 2, "one failure per extra resume: \(failures)")
        XCTAssertTrue(failures.allSatisfy { $0.contains("resumed more than once") }, "\(failures)")
    }

    func testLeakFailsTheTest() async {
        intercepted = []
        let value = await XCTAssertNoContinuationMisuse({
            await withSafeContinuation(ifLeaked: -1) { (_: SafeContinuation<Int, Never>) in }
        }, "fetching the avatar")
        let failures = intercepted ?? []
        intercepted = nil
        XCTAssertEqual(value, -1)
        XCTAssertEqual(failures.count, 1, "\(failures)")
        XCTAssertTrue(failures.first?.contains("fetching the avatar: ") ?? false, "\(failures)")
        XCTAssertTrue(failures.first?.contains("dropped without being resumed") ?? false, "\(failures)")
    }

    func testCorrectUseRecordsNoFailure() async throws {
        intercepted = []
        let value = try await XCTAssertNoContinuationMisuse {
            try await withSafeThrowingContinuation { (c: SafeContinuation<String, any Error>) in c.resume(returning: "ok") }
        }
        let failures = intercepted ?? []
        intercepted = nil
        XCTAssertEqual(value, "ok")
        XCTAssertEqual(failures, [])
    }
}
