import Benchmark
import ConcurrencyToolkit

/// 100,000 updates from a tight loop until the main actor shows the last one:
/// how long it takes, how many updates the main actor processed, and how much
/// CPU time the main thread spent. The reporting loop runs on the cooperative
/// pool while the main thread is free to run the main actor (the benchmark
/// runner blocks a Dispatch thread, not the main thread).
///
/// Foundation.Progress has no peer here: it delivers nothing to the main
/// actor by itself (key-value observation of it is an Apple-platform feature).
func progressDeliveryBenchmarks() {
    let updates = 100_000
    let name = "100,000 updates reach the main actor"
    let mainActorUpdates = BenchmarkMetric.custom("main-actor updates", useScalingFactor: false)
    let mainThreadCPU = BenchmarkMetric.custom("main-thread CPU (us)", useScalingFactor: false)
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, mainActorUpdates, mainThreadCPU],
        maxDuration: .seconds(5), maxIterations: 50)

    /// Runs one delivery strategy and records the main actor's side of it.
    func measure(
        _ benchmark: Benchmark, _ deliver: (_ screen: Screen, _ updates: Int) async -> Void
    ) async {
        let cpu = await MainThreadCPUClock.make()
        let screen = Screen()
        let before = cpu.nanoseconds
        await deliver(screen, updates)
        let spent = cpu.nanoseconds - before
        let (shown, processed) = await MainActor.run { (screen.shown, screen.updates) }
        precondition(shown == updates - 1, "the main actor shows \(shown), not the last update \(updates - 1)")
        benchmark.measurement(mainActorUpdates, processed)
        benchmark.measurement(mainThreadCPU, spent / 1_000)
    }

    Benchmark("\(name): ThrottledProgress, 16 ms", configuration: configuration) { benchmark in
        await measure(benchmark) { screen, updates in
            let progress = ThrottledProgress<Int>(interval: .milliseconds(16)) { @MainActor value in
                screen.show(value)
            }
            for index in 0..<updates { progress.report(index) }
            await progress.finish()  // returns after the last value was shown
        }
    }
    Benchmark("\(name): AsyncStream .bufferingNewest(1) (peer)", configuration: configuration) { benchmark in
        await measure(benchmark) { screen, updates in
            let (continuation, consumer) = mainActorStreamConsumer(screen: screen)
            for index in 0..<updates { continuation.yield(index) }
            continuation.finish()
            await consumer.value  // the loop ends after the newest value was shown
        }
    }
    Benchmark("\(name): Task { @MainActor in } per update (peer)", configuration: configuration) { benchmark in
        await measure(benchmark) { screen, updates in
            for index in 0..<updates {
                Task { @MainActor in screen.show(index) }
            }
            await waitUntil(screen, hasShown: updates)
        }
    }
}
