import XCTest

/// XCTest on Linux has no `XCTExpectFailure`. To show that an assertion
/// fails a test, a case of this class intercepts the failures XCTest would
/// record (every `XCTFail` lands in `recordFailure` of the running test case)
/// while `intercepted` is non-nil, and then asserts on what was intercepted.
/// Failures outside that window go to XCTest as usual.
///
/// ```swift
/// intercepted = []
/// XCTAssertNoContinuationMisuse { … }     // its failure is kept, not recorded
/// let failures = intercepted ?? []
/// intercepted = nil
/// XCTAssertEqual(failures.count, 1)
/// ```
open class FailureInterceptingTestCase: XCTestCase {
    public var intercepted: [String]?

    override open func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        if intercepted != nil {
            intercepted?.append(description)
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }
}
