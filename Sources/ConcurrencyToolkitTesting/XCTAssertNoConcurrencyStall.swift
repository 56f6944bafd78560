import ConcurrencyToolkit
import XCTest

/// Runs `operation` with the stall detector on and records an XCTest
/// failure for every `ConcurrencyStall` of at least `threshold` that
/// happened meanwhile. Returns the operation's result.
///
/// ```swift
/// let count = try await XCTAssertNoConcurrencyStall(threshold: .milliseconds(300)) {
///     try await importer.importLibrary(at: fixtures)
/// }
/// XCTAssertEqual(count, 120)
/// ```
///
/// One failure per stall, after `operation` returns, at `file`/`line`; not
/// for one the host caused (`isCausedByHost`). A stall of a test running at
/// the same time is seen too: see <doc:StallsAndContentionInTests>.
public func XCTAssertNoConcurrencyStall<Result>(
    threshold: Duration = StallDetector.defaultThreshold,
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> Result,
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) async rethrows -> Result {
    let (result, stalls) = try await withConcurrencyStallsRecorded(
        threshold: threshold, isolation: isolation, operation)
    failForEach(stalls.causedByTheProgram, prefix: "CONCURRENCY STALL: ", message: message(), file: file, line: line)
    return result
}
