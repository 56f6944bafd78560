import ConcurrencyToolkit
import Synchronization
import Testing

/// A Swift Testing trait that turns every `ContinuationMisuse` inside a test
/// into a recorded issue, so a double resume or a leaked continuation fails
/// the test instead of scrolling by on standard error.
///
/// ```swift
/// @Test(.continuationMisuseIsAnIssue)
/// func downloadsResumeExactlyOnce() async throws {
///     let data = try await downloader.fetch(url)   // uses withSafeThrowingContinuation inside
///     #expect(!data.isEmpty)
/// }
///
/// @Suite(.continuationMisuseIsAnIssue)            // or for every test of a suite
/// struct DownloaderTests { ... }
/// ```
///
/// Misuse detected on the test's own task (or a task it started) is recorded
/// at once, so `withKnownIssue { }` can expect it. Misuse detected on another
/// thread (a callback queue resuming twice, a leak found when a Dispatch
/// queue drops the last copy) is recorded when the test function returns.
/// A leak detected after the test returned — a copy kept alive past the test —
/// is not seen; it goes to the process-wide handler.
///
/// Each test gets its own scope, so tests running in parallel never see each
/// other's misuse.
public struct ContinuationMisuseIsAnIssue: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test in a suite it is attached to, nested suites included.
    ///
    /// ```swift
    /// @Suite(.continuationMisuseIsAnIssue) struct NetworkTests { @Suite struct Uploads { ... } }
    /// ```
    public var isRecursive: Bool { true }

    /// Creates the trait; usually spelled `.continuationMisuseIsAnIssue`.
    ///
    /// ```swift
    /// @Test(ContinuationMisuseIsAnIssue()) func uploads() async throws { ... }
    /// ```
    public init() {}

    /// One scope per test case, so each issue lands on the test that caused it.
    /// The testing library calls this; you do not.
    ///
    /// ```swift
    /// @Test(.continuationMisuseIsAnIssue, arguments: [1, 2]) func retries(_ n: Int) async { ... }  // a scope per argument
    /// ```
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs the test with a misuse handler that records issues. The testing
    /// library calls this; a test can call it to check the trait itself.
    ///
    /// ```swift
    /// try await ContinuationMisuseIsAnIssue().provideScope(for: test, testCase: nil) { try await body() }
    /// ```
    ///
    /// If the test throws, the error propagates after the misuse seen so far is recorded.
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let deferred = SanitizedMutex<[ContinuationMisuse]>([])
        let handler = ContinuationMisuseHandler.custom { misuse in
            // On the test's task tree the testing library knows the test: record now.
            if Test.current != nil {
                Issue.record(Comment(rawValue: misuse.description), sourceLocation: misuse.sourceLocation)
            } else {
                deferred.withLock { $0.append(misuse) }
            }
        }
        let outcome: Result<Void, any Error>
        do {
            try await withContinuationMisuseHandler(handler) { try await function() }
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        for misuse in deferred.withLock({ $0 }) {
            Issue.record(Comment(rawValue: misuse.description), sourceLocation: misuse.sourceLocation)
        }
        try outcome.get()
    }
}

extension Trait where Self == ContinuationMisuseIsAnIssue {
    /// Records every continuation misuse inside the test as an issue.
    ///
    /// ```swift
    /// @Test(.continuationMisuseIsAnIssue)
    /// func bridgesTheCallbackOnce() async throws { ... }
    /// ```
    public static var continuationMisuseIsAnIssue: Self { Self() }
}

extension ContinuationMisuse {
    /// Where a developer should look: the extra resume, or the creation of a leaked continuation.
    var sourceLocation: SourceLocation {
        let site = resumeSite ?? creationSite
        return SourceLocation(fileID: site.fileID, filePath: site.fileID, line: site.line, column: 1)
    }
}
