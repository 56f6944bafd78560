import ConcurrencyToolkit
import XCTest

/// Runs `operation` with actor contention watched and records an XCTest
/// failure for every `ActorContention` of at least `threshold` that
/// happened meanwhile. Returns the operation's result.
///
/// ```swift
/// let hits = try await XCTAssertNoActorContention(threshold: .milliseconds(50)) {
///     try await cache.warmUp(from: fixtures)   // an actor on a MonitoredActorExecutor
/// }
/// XCTAssertEqual(hits, 120)
/// ```
///
/// One failure per episode, after `operation` returns, at `file`/`line`. An
/// episode of a test running at the same time is seen too: see <doc:StallsAndContentionInTests>.
public func XCTAssertNoActorContention<Result>(
    threshold: Duration = ActorContentionDetector.defaultThreshold,
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> Result,
    _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) async rethrows -> Result {
    let (result, contentions) = try await withActorContentionRecorded(
        threshold: threshold, isolation: isolation, operation)
    failForEach(contentions, prefix: "ACTOR CONTENTION: ", message: message(), file: file, line: line)
    return result
}
