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
///
/// @Suite(.continuationMisuseIsAnIssue)            // or for every test of a suite
/// struct DownloaderTests { ... }
/// ```
///
/// Each misuse is recorded in the test that **created** the continuation, in
/// the context where it was created, whichever thread detects it: the test's
/// own task, a task it started, a Dispatch queue or a `readabilityHandler`
/// resuming twice, a callback thread dropping the last copy. So a
/// continuation created inside `withKnownIssue { }` can have its misuse
/// expected there, as long as the misuse happens before that closure returns:
///
/// ```swift
/// @Test(.continuationMisuseIsAnIssue) func extraCallbackIsReported() async {
///     await withKnownIssue {
///         let done = DispatchSemaphore(value: 0)
///         _ = await withSafeContinuation(ifLeaked: 0) { c in
///             queue.async { c.resume(returning: 1); c.resume(returning: 2); done.signal() }
///         }
///         done.wait()
///     } matching: { ($0.error as? ContinuationMisuse)?.kind == .resumedMoreThanOnce }
/// }
/// ```
///
/// The issue's headline is the misuse itself ("Caught error: SafeContinuation
/// created at … was resumed more than once; …"), and `issue.error` is the
/// `ContinuationMisuse`, at the line of the extra resume (or of the
/// creation, for a leak). A misuse reported on a thread that is not running a
/// task is recorded before that thread's `resume` returns (it waits up to 5
/// seconds for the test's context to record it); one reported on another
/// task is recorded there at once when that task belongs to the test, and
/// otherwise shortly after. A misuse detected after the test ended — a copy
/// kept alive past it — reaches no test.
///
/// Each test gets its own scope, so tests running in parallel never see each
/// other's misuse.
public struct ContinuationMisuseIsAnIssue: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test in a suite it is attached to, nested suites included.
    ///
    /// For example: `@Suite(.continuationMisuseIsAnIssue) struct NetworkTests { @Suite struct Uploads { ... } }`
    public var isRecursive: Bool { true }

    /// Creates the trait; usually spelled `.continuationMisuseIsAnIssue`.
    ///
    /// For example: `@Test(ContinuationMisuseIsAnIssue()) func uploads() async throws { ... }`
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
    /// @Test func theTraitRecordsMisuse() async throws {
    ///     try await ContinuationMisuseIsAnIssue().provideScope(for: Test.current!, testCase: nil) {
    ///         _ = try await downloader.fetch(url)
    ///     }
    /// }
    /// ```
    ///
    /// If the test throws, the error propagates after the misuse seen so far is recorded.
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

/// Records the misuse of one continuation in the context of the task that
/// created it: its test and, if any, its `withKnownIssue` scope, which the
/// testing library keeps in task-local values. A thread that is not running
/// a task has none, so the recorder starts, on the creating task, a small task
/// that inherits them and records what it is sent. It ends when the
/// continuation is gone (the last reference to the recorder is the
/// continuation's).
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
            // A task of the test: record here and now.
            misuse.recordAsIssue()
        } else if onTask {
            // A task outside any test: never block a pool thread on another task.
            inbox.yield(Pending(misuse: misuse, recorded: nil))
        } else {
            // A plain thread (a Dispatch queue, a C callback): wait until the
            // creating context recorded it, so the test sees it in order.
            let recorded = DispatchSemaphore(value: 0)
            inbox.yield(Pending(misuse: misuse, recorded: recorded))
            _ = recorded.wait(timeout: .now() + 5)
        }
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
    /// Records this misuse as an issue of the current test: as an error, so
    /// the headline is the misuse and `issue.error` is this value.
    func recordAsIssue() {
        Issue.record(self, sourceLocation: sourceLocation)
    }

    /// Where a developer should look: the extra resume, or the creation of a leaked continuation.
    var sourceLocation: SourceLocation {
        let site = resumeSite ?? creationSite
        return SourceLocation(fileID: site.fileID, filePath: site.fileID, line: site.line, column: 1)
    }
}
