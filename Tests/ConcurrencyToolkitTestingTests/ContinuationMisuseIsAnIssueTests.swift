import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Dispatch
import Testing

@Suite struct ContinuationMisuseIsAnIssueTests {
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
            issue.comments.contains { $0.rawValue.contains("resumed more than once") }
        }
    }

    @Test(.continuationMisuseIsAnIssue)
    func leakInsideTheTestIsRecordedAsAnIssue() async {
        await withKnownIssue {
            let value = await withSafeContinuation(ifLeaked: -1) { (_: SafeContinuation<Int, Never>) in }
            #expect(value == -1)
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("dropped without being resumed") }
        }
    }

    @Test func misuseOnAnotherThreadIsRecordedWhenTheTestReturns() async throws {
        // Drive the trait's scope directly, inside withKnownIssue, so the issue
        // it records after the test body returns can be expected here.
        let test = try #require(Test.current)
        try await withKnownIssue {
            try await ContinuationMisuseIsAnIssue().provideScope(for: test, testCase: Test.Case.current) {
                let value = await withSafeContinuation(ifLeaked: 0) { (c: SafeContinuation<Int, Never>) in
                    DispatchQueue.global().async {
                        c.resume(returning: 1)
                        c.resume(returning: 2)  // reported on a Dispatch thread: no test context there
                    }
                }
                #expect(value == 1)
            }
        } matching: { issue in
            issue.comments.contains { $0.rawValue.contains("resumed more than once") }
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
