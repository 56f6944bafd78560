import Benchmark

/// How many cooperative threads an async benchmark really gets. package-benchmark
/// 1.38 starts each async benchmark in a task and waits for it on a semaphore
/// from its runner, which itself runs on the cooperative pool: on a 2-core
/// machine that leaves ONE free thread. Two 100 ms spins then take ~200 ms
/// instead of ~100 ms. Every async figure in Documentation/Performance.md is
/// read with this in mind; this benchmark keeps the effect visible.
func harnessBenchmarks() {
    let configuration = Benchmark.Configuration(metrics: [.wallClock], maxDuration: .seconds(2), maxIterations: 5)
    Benchmark("Harness: two 100 ms spins in a task group", configuration: configuration) { _ in
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    let end = ContinuousClock.now.advanced(by: .milliseconds(100))
                    while ContinuousClock.now < end {}
                }
            }
        }
    }
}
