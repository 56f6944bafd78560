import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(1))) struct CancellationTests {
    @Test func cancellingResumesWaiterAtOnceAndCallsOnCancelOnce() async {
        let parking = Collected<SafeContinuation<Int, any Error>>()
        let stops = Counter()
        let (result, misuses) = await withContinuationMisuseRecorded { () async -> Result<Int, any Error> in
            let waiter = Task {
                await outcome {
                    try await withSafeThrowingContinuation(onCancel: { stops.increment() }) { parking.append($0) }
                }
            }
            let continuation = await parking.next()
            waiter.cancel()
            let result = await waiter.value  // would hang if cancellation did not resume the waiter
            // The callback API answers late, as real ones do after being told to stop.
            #expect(continuation?.resume(returning: 1) == false)
            return result
        }
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(stops.count == 1)
        #expect(misuses.isEmpty, "a resume after cancellation is expected, not misuse")
    }

    @Test func alreadyCancelledTaskSkipsBodyAndStillCallsOnCancelOnce() async {
        let stops = Counter()
        let bodyRuns = Counter()
        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await outcome {
                try await withSafeThrowingContinuation(onCancel: { stops.increment() }) {
                    (c: SafeContinuation<Int, any Error>) in
                    bodyRuns.increment()
                    c.resume(returning: 1)
                }
            }
        }
        let result = await waiter.value
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(stops.count == 1)
        #expect(bodyRuns.count == 0)
    }

    @Test func withoutOnCancelTheWaiterWaitsLikeTheStandardLibrary() async throws {
        let parking = Collected<SafeContinuation<Int, any Error>>()
        let waiter = Task { try await withSafeThrowingContinuation { parking.append($0) } }
        let continuation = try #require(await parking.next())
        waiter.cancel()
        try await Task.sleep(for: .milliseconds(20))
        #expect(continuation.resume(returning: 42), "cancellation alone must not finish it")
        #expect(try await waiter.value == 42)
    }

    @Test func resumeBeforeCancellationWinsAndOnCancelDoesNotRun() async throws {
        let stops = Counter()
        let waiter = Task {
            try await withSafeThrowingContinuation(onCancel: { stops.increment() }) {
                (c: SafeContinuation<Int, any Error>) in c.resume(returning: 5)
            }
        }
        #expect(try await waiter.value == 5)
        waiter.cancel()
        #expect(stops.count == 0)
    }

    @Test func leakWithCancellationHandlerIsStillDetected() async {
        let stops = Counter()
        let (result, misuses) = await withContinuationMisuseRecorded {
            await outcome {
                try await withSafeThrowingContinuation(onCancel: { stops.increment() }) {
                    (_: SafeContinuation<Int, any Error>) in
                }
            }
        }
        #expect(throws: SafeContinuationError.leaked) { try result.get() }
        #expect(misuses.map(\.kind) == [.leaked])
        #expect(stops.count == 0)
    }

    @Test func cancellationAndTimeoutTogetherFinishOnce() async {
        let parking = Collected<SafeContinuation<Int, any Error>>()
        let stops = Counter()
        let waiter = Task {
            await outcome {
                try await withSafeThrowingContinuation(timeout: .seconds(30), onCancel: { stops.increment() }) {
                    parking.append($0)
                }
            }
        }
        let continuation = await parking.next()
        waiter.cancel()
        let result = await waiter.value
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(stops.count == 1)
        _ = continuation
    }
}
