import ConcurrencyToolkit
import Dispatch
import HarnessSupport

// The toolkit's cost per item (issue 29), as interleaved rounds: `items`
// items 2 at a time, trivial, and as tiny `io.run` jobs, each beside the
// hand-written task group and the hand-written Dispatch loop
// (HarnessSupport/PerItemPeers.swift, which ToolkitBenchmarks times too).
// Selected with PER_ITEM=1 (Benchmarks/Scripts/per-item.sh); every row is
// per item. Each round checks the total, so a case that skipped items fails.

/// Times one pass over `count` items with `body`, checking that every item was added.
@inline(never)
func perItemRound(_ count: Int, _ body: ([Int], Sum) async throws -> Void) async throws -> Int64 {
    let (items, sum) = (Array(0..<count), Sum())
    let start = ContinuousClock.now
    try await body(items, sum)
    let elapsed = (ContinuousClock.now - start).nanoseconds
    precondition(sum.total == items.reduce(0, +), "a per-item case skipped items")
    return elapsed
}

/// The per-item cases, in the order of the table.
func perItemCases(items count: Int) -> [Case] {
    let width = 2
    let executor = BlockingExecutor(width: width, label: "per-item")
    let lanes = (0..<width).map { DispatchQueue(label: "per-item-lane-\($0)") }
    let trivial = "trivial items, 2 at a time"
    let jobs = "tiny io.run jobs, 2 at a time"
    return [
        Case(name: "\(trivial): `concurrentForEach`", operations: count) { n in
            try await perItemRound(n) { items, sum in await toolkitForEach(items, width: width, into: sum) }
        },
        Case(name: "\(trivial): hand-written TaskGroup (peer)", operations: count) { n in
            try await perItemRound(n) { items, sum in await handWrittenForEach(items, width: width) { sum.add($0) } }
        },
        Case(name: "\(trivial): hand-written Dispatch loop (peer)", operations: count) { n in
            try await perItemRound(n) { items, sum in await dispatchForEach(items, width: width) { sum.add($0) } }
        },
        Case(name: "\(jobs): `concurrentForEach` + `BlockingExecutor.run`", operations: count) { n in
            try await perItemRound(n) { items, sum in try await toolkitRunJobs(items, width: width, on: executor, into: sum) }
        },
        Case(name: "\(jobs): hand-written TaskGroup + continuation + serial queues (peer)", operations: count) { n in
            try await perItemRound(n) { items, sum in await handWrittenRunJobs(items, width: width, lanes: lanes, into: sum) }
        },
        Case(name: "\(jobs): hand-written Dispatch loop (peer)", operations: count) { n in
            try await perItemRound(n) { items, sum in await dispatchForEach(items, width: width) { sum.add($0) } }
        },
    ]
}
