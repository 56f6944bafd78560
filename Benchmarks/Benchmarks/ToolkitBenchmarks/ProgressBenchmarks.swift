import Benchmark
import ConcurrencyToolkit
import Foundation

/// What one progress update costs the code that reports it, from one thread
/// and from four at once, against what users would write instead. Every
/// consumer is on the main actor; ProgressDeliveryBenchmarks measures what
/// the main actor pays.
func progressBenchmarks() {
    let single = "Progress report, 1 thread"
    Benchmark("\(single): ThrottledProgress.report", configuration: microConfiguration()) { benchmark in
        let progress = ThrottledProgress<Int>(interval: .milliseconds(33), mainActorScreen())
        for index in benchmark.scaledIterations {
            progress.report(index)
        }
    }
    Benchmark("\(single): Foundation.Progress completedUnitCount += 1 (peer)", configuration: microConfiguration()) {
        benchmark in
        let progress = Progress(totalUnitCount: Int64.max)
        for _ in benchmark.scaledIterations {
            progress.completedUnitCount += 1
        }
    }
    Benchmark("\(single): AsyncStream .bufferingNewest(1) yield (peer)", configuration: microConfiguration()) {
        benchmark in
        let (continuation, consumer) = mainActorStreamConsumer()
        for index in benchmark.scaledIterations {
            continuation.yield(index)
        }
        benchmark.stopMeasurement()
        continuation.finish()
        await consumer.value
    }
    Benchmark("\(single): Task { @MainActor in } per update (peer)", configuration: microConfiguration()) {
        benchmark in
        let screen = Screen()
        for index in benchmark.scaledIterations {
            Task { @MainActor in screen.show(index) }
        }
        // What the reporter pays ends here; let the main actor catch up
        // before the next sample so the queue of tasks does not grow.
        benchmark.stopMeasurement()
        await waitUntil(screen, hasShown: benchmark.scaledIterations.count)
    }

    // Four threads report at once: 250,000 reports each per sample, so
    // waking the threads is noise next to the reports.
    let four = "Progress report, 4 threads"
    let threads = 4
    let perThread = BenchmarkScalingFactor.mega.rawValue / threads
    let contended = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal], scalingFactor: .mega,
        maxDuration: .seconds(3), maxIterations: 100)
    Benchmark("\(four): ThrottledProgress.report", configuration: contended) { _ in
        let progress = ThrottledProgress<Int>(interval: .milliseconds(33), mainActorScreen())
        gang.run { thread in
            for index in 0..<perThread { progress.report(thread * perThread + index) }
        }
    }
    Benchmark("\(four): Foundation.Progress completedUnitCount += 1 (peer)", configuration: contended) { _ in
        let progress = Progress(totalUnitCount: Int64.max)
        gang.run { _ in
            for _ in 0..<perThread { progress.completedUnitCount += 1 }
        }
    }
    Benchmark("\(four): AsyncStream .bufferingNewest(1) yield (peer)", configuration: contended) { benchmark in
        let (continuation, consumer) = mainActorStreamConsumer()
        gang.run { thread in
            for index in 0..<perThread { continuation.yield(thread * perThread + index) }
        }
        benchmark.stopMeasurement()
        continuation.finish()
        await consumer.value
    }
    // No four-thread variant of one task per update: a million main-actor
    // tasks per sample would measure the main actor's backlog, which
    // ProgressDeliveryBenchmarks shows at a size that finishes.
}

/// The gang every four-thread benchmark shares (threads are reused, never
/// torn down; see ThreadGang).
private let gang = ThreadGang(count: 4)

/// A main-actor handler that shows the value, as a progress bar would.
func mainActorScreen() -> @MainActor @Sendable (Int) -> Void {
    let screen = Screen()
    return { @MainActor value in screen.show(value) }
}

/// The `AsyncStream` users write instead of a throttle: newest value only,
/// consumed by a `for await` loop on the main actor.
func mainActorStreamConsumer(screen: Screen = Screen()) -> (AsyncStream<Int>.Continuation, Task<Void, Never>) {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .bufferingNewest(1))
    let consumer = Task { @MainActor in
        for await value in stream { screen.show(value) }
    }
    return (continuation, consumer)
}

/// Returns once the main actor has processed `count` updates on `screen`.
/// Tasks enqueued on the main actor run in order, so one hop usually finds
/// them all done; the loop only covers a scheduler that reorders them.
func waitUntil(_ screen: Screen, hasShown count: Int) async {
    while await MainActor.run(body: { screen.updates }) < count {
        try? await Task.sleep(for: .milliseconds(1))
    }
}
