import Benchmark
import ConcurrencyToolkit

/// What adopting `MonitoredActorExecutor` costs an actor, beside a default
/// actor and `BlockingSerialExecutor` (issue 28's goal: at most 1.5x a
/// default actor's hop, at most 50 ns of bookkeeping per job): an
/// uncontended hop from outside, a contended hop (8 tasks calling at once),
/// and 10,000 jobs from 8 tasks. The cost table in Performance.md comes from
/// the same cases in interleaved rounds (HandOffHarness/ActorCases.swift,
/// Scripts/actor-executor.sh): package-benchmark runs them one after another.
func actorExecutorBenchmarks() {
    let kinds: [(name: String, make: @Sendable () -> any BenchCounter)] = [
        ("default actor (peer)", { DefaultCounter() }),
        ("MonitoredActorExecutor", { MonitoredCounter() }),
        ("BlockingSerialExecutor (peer)", { BlockingSerialCounter() }),
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

protocol BenchCounter: Actor {
    func increment() -> Int
}

actor DefaultCounter: BenchCounter {
    private var value = 0
    func increment() -> Int { value += 1; return value }
}

actor MonitoredCounter: BenchCounter {
    nonisolated let executor = MonitoredActorExecutor(label: "bench")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private var value = 0
    func increment() -> Int { value += 1; return value }
}

actor BlockingSerialCounter: BenchCounter {
    nonisolated let executor = BlockingSerialExecutor(label: "bench")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private var value = 0
    func increment() -> Int { value += 1; return value }
}
