import ConcurrencyToolkit
import Testing

/// A Swift Testing trait that records every `ActorContention` during a test
/// as an issue, so a test whose calls queue behind a monitored actor fails
/// instead of only running slowly.
///
/// ```swift
/// @Test(.actorContentionIsAnIssue)
/// func importDoesNotQueueBehindTheCache() async throws {
///     _ = try await importer.run()   // a call waiting 100 ms for a monitored actor fails this test
/// }
/// ```
///
/// Issues are recorded after the test body returns or throws; `issue.error`
/// is the `ActorContention`. Contention belongs to the process: use the trait
/// on serialized suites, or on tests whose actors no other test uses. See
/// <doc:StallsAndContentionInTests>.
public struct ActorContentionIsAnIssue: TestTrait, SuiteTrait, TestScoping {
    /// The shortest wait recorded.
    ///
    /// For example: `#expect(ActorContentionIsAnIssue().threshold == ActorContentionDetector.defaultThreshold)`
    public var threshold: Duration

    /// Applies to every test in a suite it is attached to, nested suites included.
    ///
    /// For example: `@Suite(.actorContentionIsAnIssue, .serialized) struct IndexTests { @Suite struct Large { ... } }`
    public var isRecursive: Bool { true }

    /// Creates the trait; usually spelled `.actorContentionIsAnIssue`.
    ///
    /// For example: `@Test(ActorContentionIsAnIssue(threshold: .milliseconds(20))) func lookups() async { ... }`
    public init(threshold: Duration = ActorContentionDetector.defaultThreshold) {
        self.threshold = threshold
    }

    /// One scope per test case. The testing library calls this.
    ///
    /// For example: `@Test(.actorContentionIsAnIssue, arguments: [1, 2]) func lookups(_ n: Int) async { ... }`
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs the test with contention recorded, records each episode as an
    /// issue, then rethrows what the test threw. The testing library calls this.
    ///
    /// For example: `try await ActorContentionIsAnIssue().provideScope(for: test, testCase: nil) { try await body() }`
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // Issues at the test's own declaration: an episode has no line of the user's to point at.
        try await recordingReportsAsIssues(of: test, performing: function) { body in
            await withActorContentionRecorded(threshold: threshold, body)
        }
    }
}

extension Trait where Self == ActorContentionIsAnIssue {
    /// Records every actor contention episode during the test (a wait of at
    /// least `ActorContentionDetector.defaultThreshold`) as an issue.
    ///
    /// For example: `@Test(.actorContentionIsAnIssue) func lookupsDoNotQueue() async { ... }`
    public static var actorContentionIsAnIssue: Self { Self() }

    /// Records every episode with a wait of at least `threshold` as an issue.
    ///
    /// For example: `@Test(.actorContentionIsAnIssue(threshold: .milliseconds(20))) func lookupsStayFast() async { ... }`
    public static func actorContentionIsAnIssue(threshold: Duration) -> Self { Self(threshold: threshold) }
}
