import Benchmark
import ConcurrencyToolkit
import Synchronization

/// Round trips of an immediately resumed continuation, and 100,000 waiters
/// with timeouts, against the standard library's continuations.
func continuationBenchmarks() {
    let round = "Continuation round trip"
    Benchmark("\(round): UnsafeContinuation (peer)", configuration: microConfiguration()) { benchmark in
        for _ in benchmark.scaledIterations {
            let value: Int = try await withUnsafeThrowingContinuation { $0.resume(returning: 1) }
            blackHole(value)
        }
    }
    Benchmark("\(round): CheckedContinuation (peer)", configuration: microConfiguration()) { benchmark in
        for _ in benchmark.scaledIterations {
            let value: Int = try await withCheckedThrowingContinuation { $0.resume(returning: 1) }
            blackHole(value)
        }
    }
    Benchmark("\(round): SafeContinuation", configuration: microConfiguration()) { benchmark in
        for _ in benchmark.scaledIterations {
            let value: Int = try await withSafeThrowingContinuation { $0.resume(returning: 1) }
            blackHole(value)
        }
    }
    Benchmark("\(round): SafeContinuation with creation backtraces", configuration: microConfiguration()) {
        benchmark in
        ContinuationMisuse.capturesCreationBacktraces = true
        defer { ContinuationMisuse.capturesCreationBacktraces = false }
        for _ in benchmark.scaledIterations {
            let value: Int = try await withSafeThrowingContinuation { $0.resume(returning: 1) }
            blackHole(value)
        }
    }
    Benchmark(
        "\(round): CheckedContinuation in withTaskCancellationHandler (peer)",
        configuration: microConfiguration()
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let value: Int = try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { $0.resume(returning: 1) }
            } onCancel: {
                blackHole(0)
            }
            blackHole(value)
        }
    }
    Benchmark("\(round): SafeContinuation onCancel", configuration: microConfiguration()) { benchmark in
        for _ in benchmark.scaledIterations {
            let value: Int = try await withSafeThrowingContinuation(onCancel: { blackHole(0) }) {
                $0.resume(returning: 1)
            }
            blackHole(value)
        }
    }
    Benchmark("\(round): SafeContinuation timeout", configuration: microConfiguration()) { benchmark in
        for _ in benchmark.scaledIterations {
            let value: Int = try await withSafeThrowingContinuation(timeout: .seconds(10)) {
                $0.resume(returning: 1)
            }
            blackHole(value)
        }
    }

    // 100,000 tasks each wait on a continuation nobody resumes; every wait
    // must end by its 200 ms timeout. Measures memory and time to fire.
    let waiters = 100_000
    let pendingConfiguration = Benchmark.Configuration(
        metrics: [.wallClock, .peakMemoryResident, .mallocCountTotal],
        maxDuration: .seconds(10), maxIterations: 5)
    Benchmark("100,000 waiters time out: SafeContinuation timeout", configuration: pendingConfiguration) { _ in
        let kept = Kept<SafeContinuation<Int, any Error>>()
        let timedOut = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<waiters {
                group.addTask {
                    do {
                        _ = try await withSafeThrowingContinuation(timeout: .milliseconds(200)) {
                            (continuation: SafeContinuation<Int, any Error>) in
                            kept.append(continuation)  // pending, not leaked
                        }
                        return false
                    } catch {
                        return error as? SafeContinuationError == .timedOut
                    }
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        precondition(timedOut == waiters, "only \(timedOut) of \(waiters) waiters timed out")
        kept.removeAll()
    }
    Benchmark(
        "100,000 waiters time out: CheckedContinuation raced by Task.sleep (peer)",
        configuration: pendingConfiguration
    ) { _ in
        let timedOut = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<waiters {
                group.addTask { await raceAgainstSleep(.milliseconds(200)) }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        precondition(timedOut == waiters, "only \(timedOut) of \(waiters) waiters timed out")
    }
}

/// The timeout users write by hand: a group racing the wait against a sleep.
/// The waiting child must resume its continuation when cancelled (the group
/// awaits all children), so it needs a lock-guarded slot of its own.
private func raceAgainstSleep(_ timeout: Duration) async -> Bool {
    struct TimedOut: Error {}
    do {
        _ = try await withThrowingTaskGroup(of: Int.self) { group in
            group.addTask {
                let slot = Mutex<CheckedContinuation<Int, any Error>?>(nil)
                return try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { continuation in
                        slot.withLock { $0 = continuation }  // nobody resumes it but cancellation
                        if Task.isCancelled { slot.withLock { $0.take() }?.resume(throwing: CancellationError()) }
                    }
                } onCancel: {
                    slot.withLock { $0.take() }?.resume(throwing: CancellationError())
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw TimedOut()
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
        return false
    } catch {
        return error is TimedOut
    }
}

/// Keeps values alive across tasks (a continuation kept here is pending, not leaked).
final class Kept<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    func removeAll() { values.withLock { $0.removeAll() } }
}
