import Benchmark

// One executable, one area per file; each area registers its benchmarks with
// its peers beside it, so every ratio in Documentation/Performance.md comes
// from one run.
let benchmarks: @Sendable () -> Void = {
    continuationBenchmarks()
    blockingBenchmarks()
    progressBenchmarks()
    progressDeliveryBenchmarks()
    concurrentMapBenchmarks()
    perItemBenchmarks()
    harnessBenchmarks()
    actorExecutorBenchmarks()
}

/// The configuration most micro benchmarks share: time and allocations, a
/// thousand operations per measured sample.
func microConfiguration(
    _ extra: [BenchmarkMetric] = [], maxDuration: Duration = .seconds(2)
) -> Benchmark.Configuration {
    .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal] + extra,
        scalingFactor: .kilo,
        maxDuration: maxDuration,
        maxIterations: 1_000_000
    )
}
