import ConcurrencyToolkit
import Testing

/// A Swift Testing trait that records every `ConcurrencyStall` during a test
/// as an issue, so a test that blocks the main actor or the cooperative pool
/// fails instead of only running slowly.
///
/// ```swift
/// @Test(.concurrencyStallIsAnIssue)
/// func importDoesNotBlockThePool() async throws {
///     try await importer.importLibrary(at: fixtures)   // a blocking read on the pool would fail this test
/// }
/// ```
///
/// Issues are recorded after the test body returns or throws; `issue.error`
/// is the `ConcurrencyStall`. Stalls belong to the process: one caused by a
/// test running at the same time is recorded too, so use the trait on
/// serialized suites or on tests that run alone. A stall the host caused
/// (`isCausedByHost`) is not recorded. See <doc:StallsAndContentionInTests>.
public struct ConcurrencyStallIsAnIssue: TestTrait, SuiteTrait, TestScoping {
    /// The shortest stall recorded.
    ///
    /// For example: `#expect(ConcurrencyStallIsAnIssue().threshold == StallDetector.defaultThreshold)`
    public var threshold: Duration

    /// Applies to every test in a suite it is attached to, nested suites included.
    ///
    /// For example: `@Suite(.concurrencyStallIsAnIssue, .serialized) struct ImportTests { @Suite struct Large { ... } }`
    public var isRecursive: Bool { true }

    /// Creates the trait; usually spelled `.concurrencyStallIsAnIssue`.
    ///
    /// For example: `@Test(ConcurrencyStallIsAnIssue(threshold: .seconds(1))) func bulkImport() async throws { ... }`
    public init(threshold: Duration = StallDetector.defaultThreshold) {
        self.threshold = threshold
    }

    /// One scope per test case. The testing library calls this.
    ///
    /// For example: `@Test(.concurrencyStallIsAnIssue, arguments: [1, 2]) func imports(_ n: Int) async { ... }`
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs the test with stalls recorded, records each as an issue, then
    /// rethrows what the test threw. The testing library calls this.
    ///
    /// For example: `try await ConcurrencyStallIsAnIssue().provideScope(for: test, testCase: nil) { try await body() }`
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // Issues at the test's own declaration: a stall has no line of the user's to point at.
        try await recordingReportsAsIssues(of: test, performing: function) { body in
            let (outcome, stalls) = await withConcurrencyStallsRecorded(threshold: threshold, body)
            return (outcome, stalls.causedByTheProgram)
        }
    }
}

extension Trait where Self == ConcurrencyStallIsAnIssue {
    /// Records every stall of the main actor or the pool during the test
    /// (of at least `StallDetector.defaultThreshold`) as an issue.
    ///
    /// For example: `@Test(.concurrencyStallIsAnIssue) func rendersOffTheMainActor() async { ... }`
    public static var concurrencyStallIsAnIssue: Self { Self() }

    /// Records every stall of at least `threshold` during the test as an issue.
    ///
    /// For example: `@Test(.concurrencyStallIsAnIssue(threshold: .milliseconds(100))) func scrollsSmoothly() async { ... }`
    public static func concurrencyStallIsAnIssue(threshold: Duration) -> Self { Self(threshold: threshold) }
}
