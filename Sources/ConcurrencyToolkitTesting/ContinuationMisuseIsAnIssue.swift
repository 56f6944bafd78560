import ConcurrencyToolkit
import Dispatch
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
/// ```
///
/// Each misuse is recorded in the test, and the `withKnownIssue { }`, where the
/// continuation was created, whichever thread detects it; `issue.error` is the
/// `ContinuationMisuse`. A misuse detected after the test ended reaches no
/// test. See <doc:TestingForContinuationMisuse>.
public struct ContinuationMisuseIsAnIssue: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test in a suite it is attached to, nested suites included.
    ///
    /// For example: `@Suite(.continuationMisuseIsAnIssue) struct NetworkTests { @Suite struct Uploads { ... } }`
    public var isRecursive: Bool { true }

    /// Creates the trait; usually spelled `.continuationMisuseIsAnIssue`.
    ///
    /// For example: `@Test(ContinuationMisuseIsAnIssue()) func uploads() async throws { ... }`
    public init() {}

    /// One scope per test case, so each issue lands on the test that caused
    /// it. The testing library calls this.
    ///
    /// For example: `@Test(.continuationMisuseIsAnIssue, arguments: [1, 2]) func retries(_ n: Int) async { ... }`
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs the test recording each misuse as an issue, then rethrows what it
    /// threw. The testing library calls this; a test may, to check the trait.
    ///
    /// For example: `try await ContinuationMisuseIsAnIssue().provideScope(for: Test.current!, testCase: nil) { _ = try await downloader.fetch(url) }`
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let handler = ContinuationMisuseHandler.binding(atCreation: {
            // On the creating task: capture its context for this continuation.
            let recorder = CreationContextRecorder()
            return .custom { misuse in recorder.record(misuse) }
        }, report: { misuse in
            misuse.recordAsIssue()
        })
        try await withContinuationMisuseHandler(handler) { try await function() }
    }
}

/// Records one continuation's misuse in the task-local context (test,
/// `withKnownIssue` scope) of the task that created it, through a task
/// started there; it ends with the continuation, the recorder's last owner.
final class CreationContextRecorder: Sendable {
    struct Pending: Sendable {
        let misuse: ContinuationMisuse
        let recorded: DispatchSemaphore?
    }

    private let inbox: AsyncStream<Pending>.Continuation

    init() {
        let (stream, inbox) = AsyncStream.makeStream(of: Pending.self)
        self.inbox = inbox
        // Task {}, not Task.detached: it must inherit the creating task's task-locals.
        Task {
            for await pending in stream {
                pending.misuse.recordAsIssue()
                pending.recorded?.signal()
            }
        }
    }

    deinit { inbox.finish() }

    func record(_ misuse: ContinuationMisuse) {
        let onTask = withUnsafeCurrentTask { $0 != nil }
        if onTask && Test.current != nil {
            misuse.recordAsIssue()
        } else if onTask {
            // A task outside any test: never block a pool thread on another task.
            inbox.yield(Pending(misuse: misuse, recorded: nil))
        } else {
            // A plain thread: wait until recorded, so the test sees it in order.
            let recorded = DispatchSemaphore(value: 0)
            inbox.yield(Pending(misuse: misuse, recorded: recorded))
            _ = recorded.wait(timeout: .now() + 5)
        }
    }
}

extension Trait where Self == ContinuationMisuseIsAnIssue {
    /// Records every continuation misuse inside the test as an issue.
    ///
    /// For example: `@Test(.continuationMisuseIsAnIssue) func bridgesTheCallbackOnce() async throws { ... }`
    public static var continuationMisuseIsAnIssue: Self { Self() }
}

extension ContinuationMisuse {
    /// Records this misuse as an issue of the current test, as an error, so `issue.error` is this value.
    func recordAsIssue() {
        Issue.record(self, sourceLocation: sourceLocation)
    }

    /// Where a developer should look: the extra resume, or the creation of a leaked continuation.
    var sourceLocation: SourceLocation {
        let site = resumeSite ?? creationSite
        return SourceLocation(fileID: site.fileID, filePath: site.fileID, line: site.line, column: 1)
    }
}
