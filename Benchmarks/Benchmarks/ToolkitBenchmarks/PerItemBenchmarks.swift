import Benchmark
import ConcurrencyToolkit
import Dispatch
import HarnessSupport

/// The toolkit's cost per item (issue 29), 100,000 items two at a time:
/// `concurrentForEach` over trivial items, and 100,000 tiny `io.run` jobs
/// (what File Squeezer does per batch of tiny files), each against a
/// hand-written task group and a hand-written loop over Dispatch
/// (HarnessSupport/PerItemPeers.swift, shared with HandOffHarness, whose
/// PER_ITEM=1 rounds give the figures: Scripts/per-item.sh). The target:
/// the toolkit within 1.2x of the hand-written task group.
func perItemBenchmarks() {
    let items = Array(0..<100_000)
    let width = 2
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .contextSwitches], warmupIterations: 1,
        maxDuration: .seconds(5), maxIterations: 20)

    let trivial = "100,000 trivial items, 2 at a time"
    Benchmark("\(trivial): concurrentForEach", configuration: configuration) { _ in
        let sum = Sum()
        await toolkitForEach(items, width: width, into: sum)
        precondition(sum.total == items.reduce(0, +))
    }
    Benchmark("\(trivial): hand-written TaskGroup (peer)", configuration: configuration) { _ in
        let sum = Sum()
        await handWrittenForEach(items, width: width) { sum.add($0) }
        precondition(sum.total == items.reduce(0, +))
    }
    Benchmark("\(trivial): hand-written Dispatch loop (peer)", configuration: configuration) { _ in
        let sum = Sum()
        await dispatchForEach(items, width: width) { sum.add($0) }
        precondition(sum.total == items.reduce(0, +))
    }

    let tiny = "100,000 tiny io.run jobs, 2 at a time"
    let executor = BlockingExecutor(width: width, label: "per-item")
    Benchmark("\(tiny): concurrentForEach + BlockingExecutor.run", configuration: configuration) { _ in
        let sum = Sum()
        try await toolkitRunJobs(items, width: width, on: executor, into: sum)
        precondition(sum.total == items.reduce(0, +))
    }
    Benchmark("\(tiny): hand-written TaskGroup + continuation + serial queues (peer)", configuration: configuration) { _ in
        let sum = Sum()
        let lanes = (0..<width).map { DispatchQueue(label: "lane-\($0)") }
        await handWrittenRunJobs(items, width: width, lanes: lanes, into: sum)
        precondition(sum.total == items.reduce(0, +))
    }
    Benchmark("\(tiny): hand-written Dispatch loop (peer)", configuration: configuration) { _ in
        let sum = Sum()
        await dispatchForEach(items, width: width) { sum.add($0) }
        precondition(sum.total == items.reduce(0, +))
    }
}
