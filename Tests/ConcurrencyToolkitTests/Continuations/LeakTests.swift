import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Dispatch
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(1))) struct LeakTests {
    /// Collects what a handler receives.
    final class Inbox: Sendable {
        private let received = Collected<ContinuationMisuse>()
        var handler: ContinuationMisuseHandler { .custom { misuse in self.received.append(misuse) } }
        var misuses: [ContinuationMisuse] { received.values }
    }

    @Test func leakIsReportedOnceAndTheWaiterThrows() async {
        let (result, misuses) = await withContinuationMisuseRecorded {
            await outcome { try await withSafeThrowingContinuation { (_: SafeContinuation<Int, any Error>) in } }
        }
        #expect(throws: SafeContinuationError.leaked) { try result.get() }
        #expect(misuses.count == 1)
        #expect(misuses.first?.kind == .leaked)
        #expect(misuses.first?.resumeSite == nil)
    }

    @Test func leakGoesToTheCreationScopeEvenWhenDroppedOnAnotherThreadAfterTheScopeEnded() async {
        let creator = Inbox()
        let bystander = Inbox()
        let release = DispatchSemaphore(value: 0)
        let waiter = await withContinuationMisuseHandler(creator.handler) {
            // An unstructured task inherits the scope, and outlives it.
            Task {
                await withSafeContinuation(ifLeaked: -1) { (c: SafeContinuation<Int, Never>) in
                    DispatchQueue.global().async {
                        release.wait()
                        _ = c  // the last copy dies with this closure, on a Dispatch thread
                    }
                }
            }
        }
        // The creation scope has ended; another scope is active where we wait.
        let value = await withContinuationMisuseHandler(bystander.handler) {
            release.signal()
            return await waiter.value
        }
        #expect(value == -1, "the waiter must get the fallback, not hang")
        #expect(creator.misuses.map(\.kind) == [.leaked])
        #expect(bystander.misuses.isEmpty)
    }

    @Test func timedOutContinuationDroppedLaterIsNotALeak() async {
        let (result, misuses) = await withContinuationMisuseRecorded {
            let kept = Collected<SafeContinuation<Int, any Error>>()
            let result = await outcome { try await withSafeThrowingContinuation(timeout: .milliseconds(10)) { kept.append($0) } }
            _ = kept.removeAll()  // dropped after the timeout finished it
            return result
        }
        #expect(throws: SafeContinuationError.timedOut) { try result.get() }
        #expect(misuses.isEmpty)
    }
}
