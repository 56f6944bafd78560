import ConcurrencyToolkit
import HarnessSupport

// What adopting `MonitoredActorExecutor` costs an actor (issue 28, item 6),
// beside a default actor and `BlockingSerialExecutor`: an uncontended hop
// (one task calling in a loop), a contended hop (8 tasks calling at once),
// 10,000 jobs from 8 tasks, and the bookkeeping per job (the executor's
// queue with its measures, minus a bare priority heap). Selected with
// ACTORS=1 (Benchmarks/Scripts/actor-executor.sh); every row is per
// operation: a hop, a job.
// The three actors are HarnessSupport/HopCounters.swift, shared with
// ToolkitBenchmarks/ActorExecutorBenchmarks.swift (package-benchmark runs
// its cases one after another, not in rounds).

/// `operations` calls from `tasks` tasks at once (each `operations / tasks`).
@inline(never)
func hops(_ counter: any HopCounter, tasks: Int, operations: Int) async -> Int64 {
    let start = ContinuousClock.now
    await withTaskGroup(of: Int.self) { group in
        for _ in 0..<tasks {
            group.addTask {
                var sink = 0
                for _ in 0..<(operations / tasks) { sink &+= await counter.increment() }
                return sink
            }
        }
        var sink = 0
        for await value in group { sink &+= value }
        blackHole(sink)
    }
    return (ContinuousClock.now - start).nanoseconds
}

/// The actor cases, in the order of the table: per kind of actor, the three cases.
func actorCases(hops count: Int, batches: Int, bookkeepingJobs: Int) -> [Case] {
    let kinds: [(name: String, counter: any HopCounter)] = [
        ("default actor", DefaultHopCounter()),
        ("`MonitoredActorExecutor`", MonitoredHopCounter(label: "harness")),
        ("`BlockingSerialExecutor`", BlockingSerialHopCounter(label: "harness")),
    ]
    var cases: [Case] = []
    for kind in kinds {
        let counter = kind.counter
        cases.append(.timed("uncontended hop: \(kind.name)", count) { _ in await counter.increment() })
        cases.append(Case(name: "contended hop, 8 tasks: \(kind.name)", operations: count) {
            await hops(counter, tasks: 8, operations: $0)
        })
        // A round is `batches` times 10,000 jobs; the row is per job.
        cases.append(Case(name: "10,000 jobs from 8 tasks, per job: \(kind.name)", operations: batches * 10_000) { jobs in
            var elapsed: Int64 = 0
            for _ in 0..<(jobs / 10_000) { elapsed += await hops(counter, tasks: 8, operations: 10_000) }
            return elapsed
        })
    }
    // The trace's share: the same 10,000 jobs on a monitored actor created in
    // a recording that has ended (its executor checks that nothing records:
    // what an adopting actor pays with no recording), and on one created in a
    // recording that runs meanwhile (3 events per job), a new one per round.
    let recordedEarlier = UncheckedBox<MonitoredHopCounter?>(nil)
    cases.append(Case(name: "10,000 jobs from 8 tasks, per job: `MonitoredActorExecutor`, made in a recording since ended", operations: batches * 10_000) { jobs in
        if recordedEarlier.value == nil {
            recordedEarlier.value = await withTraceRecording { MonitoredHopCounter(label: "harness") }.result
        }
        let counter = recordedEarlier.value!
        var elapsed: Int64 = 0
        for _ in 0..<(jobs / 10_000) { elapsed += await hops(counter, tasks: 8, operations: 10_000) }
        return elapsed
    })
    cases.append(Case(name: "10,000 jobs from 8 tasks, per job: `MonitoredActorExecutor`, while a trace records", operations: batches * 10_000) { jobs in
        await withTraceRecording {
            let counter = MonitoredHopCounter(label: "harness")
            var elapsed: Int64 = 0
            for _ in 0..<(jobs / 10_000) { elapsed += await hops(counter, tasks: 8, operations: 10_000) }
            return elapsed
        }.result
    })
    cases.append(Case(name: "queue step with measures (`MonitoredActorExecutor`'s, no lock)", operations: bookkeepingJobs) {
        Int64(_ExecutorBookkeepingCost.monitoredQueue(jobs: $0))
    })
    cases.append(Case(name: "bare priority heap push + pop", operations: bookkeepingJobs) {
        Int64(_ExecutorBookkeepingCost.bareHeap(jobs: $0))
    })
    cases.append(Case(name: "one clock read (`clock_gettime`, monotonic)", operations: bookkeepingJobs) {
        Int64(_ExecutorBookkeepingCost.clockReads($0))
    })
    // The cases above back to back, within one round: the difference is the
    // bookkeeping; less two clock reads, what the measures themselves cost.
    cases.append(Case(name: "bookkeeping per job (with measures − bare heap)", operations: bookkeepingJobs) {
        Int64(_ExecutorBookkeepingCost.monitoredQueue(jobs: $0)) - Int64(_ExecutorBookkeepingCost.bareHeap(jobs: $0))
    })
    cases.append(Case(name: "bookkeeping per job less its two clock reads", operations: bookkeepingJobs) {
        Int64(_ExecutorBookkeepingCost.monitoredQueue(jobs: $0)) - Int64(_ExecutorBookkeepingCost.bareHeap(jobs: $0))
            - Int64(_ExecutorBookkeepingCost.clockReads(2 * $0))
    })
    return cases
}

/// A value the harness sets once, from one task at a time (a case's rounds run in turn).
final class UncheckedBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
