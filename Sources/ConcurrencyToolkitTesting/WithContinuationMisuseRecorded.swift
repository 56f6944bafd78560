import ConcurrencyToolkit

/// Runs `operation` and returns its result together with every
/// `ContinuationMisuse` reported by the continuations created inside it.
///
/// Reports from other tests running in parallel never show up here: the
/// recording is scoped to this operation's task tree.
///
/// ```swift
/// @Test func doubleCallbackIsReported() async throws {
///     let (value, misuses) = await withContinuationMisuseRecorded {
///         await withSafeContinuation(ifLeaked: 0) { c in
///             c.resume(returning: 1)
///             c.resume(returning: 2)       // the bug under test
///         }
///     }
///     #expect(value == 1)
///     #expect(misuses.map(\.kind) == [.resumedMoreThanOnce])
/// }
/// ```
///
/// A leak is reported when the last copy of the continuation is dropped. If
/// that happens after `operation` returned (a copy kept alive by a callback
/// that finishes later), the report is not in the returned array.
public func withContinuationMisuseRecorded<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> Result
) async rethrows -> (result: Result, misuses: [ContinuationMisuse]) {
    let (result, misuses) = try await withReportsRecorded(ContinuationMisuse.self, isolation: isolation, operation)
    return (result, misuses)
}
