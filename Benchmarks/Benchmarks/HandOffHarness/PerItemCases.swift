import ConcurrencyToolkit
import Dispatch
import HarnessSupport

// The toolkit's cost per item (issue 29), as interleaved rounds: `items`
// items 2 at a time, trivial, and as tiny `io.run` jobs, each beside the
// hand-written task group and the hand-written Dispatch loop
// (HarnessSupport/PerItemPeers.swift, which ToolkitBenchmarks times too).
// Selected with PER_ITEM=1 (Benchmarks/Scripts/per-item.sh); every row is
// per item. Each round checks the total, so a case that skipped items fails.

/// Times one pass over `items` with `body`, checking that every item was added.
@inline(never)
func perItemRound(_ items: [Int], _ body: (Sum) async throws -> Void) async throws -> Int64 {
    let sum = Sum()
    let start = ContinuousClock.now
    try await body(sum)
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
            let items = Array(0..<n)
            return try await perItemRound(items) { await toolkitForEach(items, width: width, into: $0) }
        },
        Case(name: "\(trivial): hand-written TaskGroup (peer)", operations: count) { n in
            let items = Array(0..<n)
            return try await perItemRound(items) { sum in await handWrittenForEach(items, width: width) { sum.add($0) } }
        },
        Case(name: "\(trivial): hand-written Dispatch loop (peer)", operations: count) { n in
            let items = Array(0..<n)
            return try await perItemRound(items) { sum in await dispatchForEach(items, width: width) { sum.add($0) } }
        },
        Case(name: "\(jobs): `concurrentForEach` + `BlockingExecutor.run`", operations: count) { n in
            let items = Array(0..<n)
            return try await perItemRound(items) { try await toolkitRunJobs(items, width: width, on: executor, into: $0) }
        },
        Case(name: "\(jobs): hand-written TaskGroup + continuation + serial queues (peer)", operations: count) { n in
            let items = Array(0..<n)
            return try await perItemRound(items) { await handWrittenRunJobs(items, width: width, lanes: lanes, into: $0) }
        },
        Case(name: "\(jobs): hand-written Dispatch loop (peer)", operations: count) { n in
            let items = Array(0..<n)
            return try await perItemRound(items) { sum in await dispatchForEach(items, width: width) { sum.add($0) } }
        },
    ]
}
