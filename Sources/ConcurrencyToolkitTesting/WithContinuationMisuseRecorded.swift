import ConcurrencyToolkit

/// Runs `operation` and returns its result together with every
/// `ContinuationMisuse` reported by the continuations created inside it.
///
/// ```swift
/// let (value, misuses) = await withContinuationMisuseRecorded {
///     await withSafeContinuation(ifLeaked: 0) { c in
///         c.resume(returning: 1)
///         c.resume(returning: 2)       // the bug under test
///     }
/// }
/// #expect(value == 1)
/// #expect(misuses.map(\.kind) == [.resumedMoreThanOnce])
/// ```
///
/// A leak reported after `operation` returned (the last copy dropped later)
/// is not returned. See <doc:TestingForContinuationMisuse>.
public func withContinuationMisuseRecorded<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ operation: () async throws -> Result
) async rethrows -> (result: Result, misuses: [ContinuationMisuse]) {
    let (result, misuses) = try await withReportsRecorded(ContinuationMisuse.self, isolation: isolation, operation)
    return (result, misuses)
}
