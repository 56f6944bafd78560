import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Dispatch
import Testing
import TestSupport

@Suite struct ContinuationMisuseIsAnIssueTests {
    /// The misuse is the issue's error, so its headline is the report itself.
    static func isMisuse(_ issue: Issue, _ kind: ContinuationMisuse.Kind, _ words: String) -> Bool {
        guard let misuse = issue.error as? ContinuationMisuse, misuse.kind == kind else { return false }
        return "\(issue)".contains(words) && "\(issue)".contains("SafeContinuation created at")
    }

    @Test(.continuationMisuseIsAnIssue)
    func doubleResumeInsideTheTestIsRecordedAsAnIssue() async {
        // Without the trait the report would only go to standard error, no
        // issue would be recorded, and withKnownIssue would fail this test.
        await withKnownIssue {
            let value = await withSafeContinuation(ifLeaked: 0) { (c: SafeContinuation<Int, Never>) in
                c.resume(returning: 1)
                c.resume(returning: 2)
            }
            #expect(value == 1)
        } matching: { issue in
            Self.isMisuse(issue, .resumedMoreThanOnce, "resumed more than once")
        }
    }

    @Test(.continuationMisuseIsAnIssue)
    func leakInsideTheTestIsRecordedAsAnIssue() async {
        await withKnownIssue {
            let value = await withSafeContinuation(ifLeaked: -1) { (_: SafeContinuation<Int, Never>) in }
            #expect(value == -1)
        } matching: { issue in
            Self.isMisuse(issue, .leaked, "dropped without being resumed")
        }
    }

    /// The realistic case: a callback thread (here a Dispatch queue, as a
    /// `readabilityHandler` is) resumes three extra times, inside `withKnownIssue`.
    @Test(.continuationMisuseIsAnIssue)
    func doubleResumeOnAnotherThreadIsExpectableWithKnownIssue() async {
        await withKnownIssue {
            let done = DispatchSemaphore(value: 0)
            let value = await withSafeContinuation(ifLeaked: 0) { (c: SafeContinuation<Int, Never>) in
                DispatchQueue(label: "handler").async {
                    for chunk in 1...4 { c.resume(returning: chunk) }
                    done.signal()
                }
            }
            await withCheckedContinuation { finished in
                DispatchQueue.global().async { done.wait(); finished.resume() }
            }
            #expect(value == 1)
        } matching: { issue in
            Self.isMisuse(issue, .resumedMoreThanOnce, "resumed more than once")
        }
    }

    @Test(.continuationMisuseIsAnIssue)
    func leakOnAnotherThreadIsExpectableWithKnownIssue() async {
        await withKnownIssue {
            let value = await withSafeContinuation(ifLeaked: -1) { (c: SafeContinuation<Int, Never>) in
                // The last copy dies on the queue, well after this closure returned.
                DispatchQueue(label: "dropper").asyncAfter(deadline: .now() + .milliseconds(50)) { _ = c }
            }
            #expect(value == -1)
        } matching: { issue in
            Self.isMisuse(issue, .leaked, "dropped without being resumed")
        }
    }

    /// Two scopes, as two parallel tests have: each records only its own.
    @Test func misuseLandsInTheTestThatCreatedTheContinuation() async throws {
        let test = try #require(Test.current)
        let parked = Lock<SafeContinuation<Int, Never>?>(nil)
        // A scope whose continuation is misused later, from a thread, while
        // the other scope is running: the issue must land in the first.
        try await withKnownIssue {
            try await ContinuationMisuseIsAnIssue().provideScope(for: test, testCase: Test.Case.current) {
                let done = DispatchSemaphore(value: 0)
                let value = await withSafeContinuation(ifLeaked: 0) { (c: SafeContinuation<Int, Never>) in
                    parked.withLock { $0 = c }
                    c.resume(returning: 1)
                }
                #expect(value == 1)
                // Another scope, correct use: any issue recorded in it fails this test.
                try await ContinuationMisuseIsAnIssue().provideScope(for: test, testCase: Test.Case.current) {
                    let other = await withSafeContinuation(ifLeaked: 0) { (c: SafeContinuation<Int, Never>) in
                        DispatchQueue.global().async {
                            if let first = parked.withLock({ $0.take() }) { first.resume(returning: 2) }
                            c.resume(returning: 3)
                            done.signal()
                        }
                    }
                    #expect(other == 3)
                }
                await withCheckedContinuation { finished in
                    DispatchQueue.global().async { done.wait(); finished.resume() }
                }
            }
        } matching: { issue in
            Self.isMisuse(issue, .resumedMoreThanOnce, "resumed more than once")
        }
    }

    @Test(.continuationMisuseIsAnIssue)
    func correctUseRecordsNoIssue() async throws {
        // Any issue recorded here would fail this test.
        let value = try await withSafeThrowingContinuation { (c: SafeContinuation<Int, any Error>) in
            DispatchQueue.global().async { c.resume(returning: 3) }
        }
        #expect(value == 3)
    }
}
