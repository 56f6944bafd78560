import Benchmark
import ConcurrencyToolkit
import HarnessSupport

/// What adopting `MonitoredActorExecutor` costs an actor, beside a default
/// actor and `BlockingSerialExecutor` (issue 28's goal: at most 1.5x a
/// default actor's hop, at most 50 ns of bookkeeping per job): an
/// uncontended hop from outside, a contended hop (8 tasks calling at once),
/// and 10,000 jobs from 8 tasks. The cost table in Performance.md comes from
/// the same cases in interleaved rounds (HandOffHarness/ActorCases.swift,
/// Scripts/actor-executor.sh): package-benchmark runs them one after another.
func actorExecutorBenchmarks() {
    let kinds: [(name: String, make: @Sendable () -> any HopCounter)] = [
        ("default actor (peer)", { DefaultHopCounter() }),
        ("MonitoredActorExecutor", { MonitoredHopCounter(label: "bench") }),
        ("BlockingSerialExecutor (peer)", { BlockingSerialHopCounter(label: "bench") }),
    ]
    for kind in kinds {
        let counter = kind.make()
        Benchmark("Actor hop, uncontended: \(kind.name)", configuration: microConfiguration()) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(await counter.increment())
            }
        }
        Benchmark("Actor hop, 8 tasks at once: \(kind.name)", configuration: microConfiguration()) { benchmark in
            // scaledIterations hops in all, from 8 tasks.
            let perTask = max(1, benchmark.scaledIterations.count / 8)
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask { for _ in 0..<perTask { blackHole(await counter.increment()) } }
                }
            }
        }
        Benchmark(
            "10,000 jobs from 8 tasks: \(kind.name)",
            configuration: .init(metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(2), maxIterations: 1_000)
        ) { _ in
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask { for _ in 0..<1_250 { blackHole(await counter.increment()) } }
                }
            }
        }
    }
}
