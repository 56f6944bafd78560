import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Testing
import TestSupport
extension TimingSensitive {
    @Suite struct TimeoutTests {
        @Test func waiterThrowsTimedOutNearItsDeadline() async {
            let clock = ContinuousClock()
            let parking = Collected<SafeContinuation<Int, any Error>>()
            let start = clock.now
            let (result, misuses) = await withContinuationMisuseRecorded {
                await outcome {
                    try await withSafeThrowingContinuation(timeout: .milliseconds(50)) { parking.append($0) }
                }
            }
            let elapsed = clock.now - start
            #expect(throws: SafeContinuationError.timedOut) { try result.get() }
            #expect(elapsed >= .milliseconds(50))
            // 10 ms promised plus scheduling delay on a loaded 2-core machine:
            // the bound catches a broken timer, not a busy one.
            #expect(elapsed < .milliseconds(50) + .seconds(1), "timed out after \(elapsed)")
            #expect(misuses.isEmpty)
        }

        @Test func lateResumeAfterTimeoutIsDroppedSilentlyAndCounted() async throws {
            let parking = Collected<SafeContinuation<Int, any Error>>()
            let lateBefore = PendingContinuations.snapshot().lateResumes
            let (result, misuses) = await withContinuationMisuseRecorded { () async -> Result<Int, any Error> in
                let waiter = Task {
                    await outcome { try await withSafeThrowingContinuation(timeout: .milliseconds(20)) { parking.append($0) } }
                }
                let continuation = await parking.next()
                let result = await waiter.value
                #expect(continuation?.resume(returning: 7) == false, "a resume after the timeout must lose")
                return result
            }
            #expect(throws: SafeContinuationError.timedOut) { try result.get() }
            #expect(misuses.isEmpty, "a late resume is expected, not misuse")
            #expect(PendingContinuations.snapshot().lateResumes >= lateBefore + 1)
        }

        @Test func resumeBeforeTheDeadlineWins() async throws {
            let (value, misuses) = try await withContinuationMisuseRecorded {
                try await withSafeThrowingContinuation(timeout: .seconds(30)) { (c: SafeContinuation<String, any Error>) in
                    #expect(c.resume(returning: "on time"))
                }
            }
            #expect(value == "on time")
            #expect(misuses.isEmpty)
        }

        @Test func leakWithPendingTimeoutIsDetectedAtOnceNotAtTheDeadline() async {
            let clock = ContinuousClock()
            let start = clock.now
            let (result, misuses) = await withContinuationMisuseRecorded {
                await outcome {
                    try await withSafeThrowingContinuation(timeout: .seconds(60)) { (_: SafeContinuation<Int, any Error>) in }
                }
            }
            #expect(throws: SafeContinuationError.leaked) { try result.get() }
            #expect(misuses.map(\.kind) == [.leaked])
            #expect(clock.now - start < .seconds(10), "the timer must not keep a dropped continuation alive")
        }

        @Test func scrambledDeadlinesEachFireNearTheirOwnDeadline() async {
            let delays = [90, 10, 50, 30, 70].map { Duration.milliseconds($0) }
            let kept = Collected<SafeContinuation<Int, any Error>>()  // alive past the deadline: time out, not leak
            let clock = ContinuousClock()
            let start = clock.now
            let finished = await withTaskGroup(of: (Duration, Duration, Bool).self) { group in
                for delay in delays {
                    group.addTask {
                        let result = await outcome {
                            try await withSafeThrowingContinuation(timeout: delay) { kept.append($0) }
                        }
                        let timedOut = (try? result.get()) == nil
                        return (delay, clock.now - start, timedOut)
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(finished.count == delays.count)
            for (delay, elapsed, timedOut) in finished {
                #expect(timedOut)
                #expect(elapsed >= delay, "a \(delay) timeout fired after only \(elapsed)")
                #expect(elapsed < delay + .seconds(1), "a \(delay) timeout fired after \(elapsed)")
            }
            _ = kept.removeAll()
        }
    }
}
