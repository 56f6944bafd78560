import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Dispatch
import Testing
import TestSupport

/// `withCheckedContinuation` → `withSafeContinuation` must compile with no
/// other change, for every result type, and each form's leak must do (and
/// say) what its documentation promises.
@Suite(.timeLimit(.minutes(1))) struct OneWordRenameTests {
    /// A generic wrapper, as FlyingFox's `IdentifiableContinuation` is: the
    /// caller has no fallback value for `T`.
    func generic<T: Sendable>(_ value: T) async -> T {
        await withSafeContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: value) }
        }
    }

    @Test func genericResultNeedsNoFallback() async {
        #expect(await generic(7) == 7)
        #expect(await generic("seven") == "seven")
    }

    @Test func voidResultIsResumedAfterALeak() async {
        let ((), misuses) = await withContinuationMisuseRecorded {
            await withSafeContinuation { (_: SafeContinuation<Void, Never>) in }
        }
        #expect(misuses.map(\.kind) == [.leaked])
        #expect(misuses.first?.description.contains("a Void continuation) was resumed") == true)
    }

    @Test func voidResumeCompilesWithoutAType() async {
        await withSafeContinuation { continuation in
            DispatchQueue.global().async { continuation.resume() }
        }
    }

    @Test func optionalResultGetsNilAfterALeak() async {
        let (value, misuses) = await withContinuationMisuseRecorded { () async -> Int? in
            await withSafeContinuation { (_: SafeContinuation<Int?, Never>) in }
        }
        #expect(value == nil)
        #expect(misuses.map(\.kind) == [.leaked])
        #expect(misuses.first?.description.contains("resumed with nil") == true)
    }

    @Test func optionalResultStillReturnsTheValue() async {
        let value: Int? = await withSafeContinuation { continuation in continuation.resume(returning: 3) }
        #expect(value == 3)
    }

    @Test func genericLeakIsReportedAtOnceWithTheCreationSite() async {
        let reported = Collected<ContinuationMisuse>()
        let handler = ContinuationMisuseHandler.custom { misuse in reported.append(misuse) }
        // The waiter cannot be resumed: it is left suspended in a task we never await.
        let line = #line + 3
        let task = Task {
            await withContinuationMisuseHandler(handler) {
                await withSafeContinuation { (_: SafeContinuation<Int, Never>) in }
            }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while reported.count == 0 && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        let misuses = reported.values
        #expect(misuses.map(\.kind) == [.leaked])
        #expect(misuses.first?.creationSite.line == line)
        #expect(misuses.first?.description.contains("stays suspended forever") == true)
        #expect(misuses.first?.description.contains("ifLeaked:") == true)
        _ = task  // never finishes: that is the documented cost of having no fallback
    }

    @Test func eachFormSaysWhatTheLeakDidToTheWaiter() async {
        let (_, throwing) = await withContinuationMisuseRecorded {
            await outcome { try await withSafeThrowingContinuation { (_: SafeContinuation<Int, any Error>) in } }
        }
        let (_, fallback) = await withContinuationMisuseRecorded {
            await withSafeContinuation(ifLeaked: 0) { (_: SafeContinuation<Int, Never>) in }
        }
        #expect(throwing.first?.description.contains("the waiter threw SafeContinuationError.leaked") == true)
        #expect(fallback.first?.description.contains("ifLeaked: fallback") == true)
        #expect(throwing.first?.description.contains("fallback") == false)
    }
}
