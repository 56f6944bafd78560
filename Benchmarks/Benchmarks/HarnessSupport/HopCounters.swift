import ConcurrencyToolkit

// The three actors whose hops the actor-executor comparison times (issue
// 28): a default actor, one on `MonitoredActorExecutor`, one on
// `BlockingSerialExecutor`, the same counter in each. Written once for the
// package-benchmark cases (ToolkitBenchmarks/ActorExecutorBenchmarks.swift)
// and the interleaved rounds (HandOffHarness/ActorCases.swift).

/// An actor whose one method the benchmarks hop onto.
public protocol HopCounter: Actor {
    func increment() -> Int
}

/// The peer: a default actor, on the cooperative pool.
public actor DefaultHopCounter: HopCounter {
    private var value = 0
    public init() {}
    public func increment() -> Int { value += 1; return value }
}

/// The same counter on a `MonitoredActorExecutor`.
public actor MonitoredHopCounter: HopCounter {
    public nonisolated let executor: MonitoredActorExecutor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private var value = 0
    public init(label: String = "benchmark") { executor = MonitoredActorExecutor(label: label) }
    public func increment() -> Int { value += 1; return value }
}

/// The same counter on a `BlockingSerialExecutor` (a Dispatch queue of its own).
public actor BlockingSerialHopCounter: HopCounter {
    public nonisolated let executor: BlockingSerialExecutor
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    private var value = 0
    public init(label: String = "benchmark") { executor = BlockingSerialExecutor(label: label) }
    public func increment() -> Int { value += 1; return value }
}
