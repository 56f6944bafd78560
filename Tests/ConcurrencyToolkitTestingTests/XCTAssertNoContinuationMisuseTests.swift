import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import XCTest

/// XCTest on Linux has no `XCTExpectFailure`. To show the assertion fails a
/// test, this case intercepts the failures XCTest would record (every
/// `XCTFail` lands in `recordFailure` of the running test case) while the
/// assertion under test runs, and then asserts on what was intercepted.
/// Failures outside that window go to XCTest as usual.
final class XCTAssertNoContinuationMisuseTests: XCTestCase {
    private var intercepted: [String]?

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if intercepted != nil {
            intercepted?.append(description)
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

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
