import ConcurrencyToolkit
import XCTest

/// Runs `operation` with the stall detector on and records an XCTest
/// failure for every `ConcurrencyStall` of at least `threshold` that
/// happened meanwhile. Returns the operation's result.
///
/// ```swift
/// final class ImporterTests: XCTestCase {
///     func testImportDoesNotBlockThePool() async throws {
///         let count = try await XCTAssertNoConcurrencyStall(threshold: .milliseconds(300)) {
///             try await importer.importLibrary(at: fixtures)
///         }
///         XCTAssertEqual(count, 120)
///     }
/// }
/// ```
///
/// Failures are recorded after `operation` returns, on the calling task, one
/// per stall, at `file`/`line`, each naming the blocking frames. Stalls
/// belong to the process: one caused by a test running at the same time is
/// seen too (see `withConcurrencyStallsRecorded(threshold:isolation:_:)`).
/// A stall the host caused (`isCausedByHost`: its threads spent at least
/// half of it waiting for a CPU that other processes held) is no failure.
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
