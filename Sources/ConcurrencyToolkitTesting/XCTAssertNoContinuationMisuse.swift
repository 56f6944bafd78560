import ConcurrencyToolkit
import XCTest

/// Runs `operation` and records an XCTest failure for every
/// `ContinuationMisuse` reported by the continuations created inside it.
/// Returns the operation's result.
///
/// ```swift
/// let data = try await XCTAssertNoContinuationMisuse {
///     try await downloader.fetch(url)
/// }
/// XCTAssertFalse(data.isEmpty)
/// ```
///
/// One failure per misuse, after `operation` returns, at `file`/`line`; a
/// leak detected later is not seen. See <doc:TestingForContinuationMisuse>.
public func XCTAssertNoContinuationMisuse<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> Result,
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) async rethrows -> Result {
    let (result, misuses) = try await withContinuationMisuseRecorded(isolation: isolation, operation)
    failForEach(misuses, message: message(), file: file, line: line)
    return result
}
