import ConcurrencyToolkit
import XCTest

/// Runs `operation` and records an XCTest failure for every
/// `ContinuationMisuse` reported by the continuations created inside it.
/// Returns the operation's result.
///
/// ```swift
/// final class DownloaderTests: XCTestCase {
///     func testFetchResumesOnce() async throws {
///         let data = try await XCTAssertNoContinuationMisuse {
///             try await downloader.fetch(url)
///         }
///         XCTAssertFalse(data.isEmpty)
///     }
/// }
/// ```
///
/// Failures are recorded after `operation` returns, on the calling task, one
/// per misuse, at `file`/`line`, each naming the sites involved. A leak that
/// is detected only after `operation` returned (a copy kept alive longer) is
/// not seen. Tests running in parallel never see each other's misuse.
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
