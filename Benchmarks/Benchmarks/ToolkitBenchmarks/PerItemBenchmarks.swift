import Benchmark
import ConcurrencyToolkit
import Dispatch
import Synchronization

/// The toolkit's cost per item (issue 29), 100,000 items two at a time:
/// `concurrentForEach` over trivial items, and 100,000 tiny `io.run` jobs
/// (what File Squeezer does per batch of tiny files), each against a
/// hand-written task group and a hand-written loop over Dispatch. The
/// target: the toolkit within 1.2x of the hand-written task group.
func perItemBenchmarks() {
    let items = Array(0..<100_000)
    let width = 2
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .contextSwitches], warmupIterations: 1,
        maxDuration: .seconds(5), maxIterations: 20)

    let trivial = "100,000 trivial items, 2 at a time"
    Benchmark("\(trivial): concurrentForEach", configuration: configuration) { _ in
        let sum = Sum()
        await items.concurrentForEach(maxConcurrency: width) { sum.add($0) }
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
        try await items.concurrentForEach(maxConcurrency: width) { item in
            try await executor.run { sum.add(item) }
        }
        precondition(sum.total == items.reduce(0, +))
    }
    Benchmark("\(tiny): hand-written TaskGroup + continuation + serial queues (peer)", configuration: configuration) { _ in
        let sum = Sum()
        let lanes = (0..<width).map { DispatchQueue(label: "lane-\($0)") }
        await handWrittenForEach(items, width: width) { item in
            await withCheckedContinuation { continuation in
                lanes[item % width].async {
                    sum.add(item)
                    continuation.resume()
                }
            }
        }
        precondition(sum.total == items.reduce(0, +))
    }
    Benchmark("\(tiny): hand-written Dispatch loop (peer)", configuration: configuration) { _ in
        let sum = Sum()
        await dispatchForEach(items, width: width) { sum.add($0) }
        precondition(sum.total == items.reduce(0, +))
    }
}

/// The width-limited task group a careful user writes: one child per item.
private func handWrittenForEach(
    _ items: [Int], width: Int, _ body: @escaping @Sendable (Int) async -> Void
) async {
    await withTaskGroup(of: Void.self) { group in
        var next = 0
        while next < min(width, items.count) {
            let item = items[next]
            group.addTask { await body(item) }
            next += 1
        }
        while await group.next() != nil, next < items.count {
            let item = items[next]
            group.addTask { await body(item) }
            next += 1
        }
        await group.waitForAll()
    }
}

/// The loop over Dispatch a user writes: `width` workers
/// (`concurrentPerform`) that each take the next item, on threads of their
/// own; the caller waits on a continuation.
private func dispatchForEach(_ items: [Int], width: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().async {
            let next = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: width) { _ in
                while true {
                    let index = next.add(1, ordering: .relaxed).oldValue
                    guard index < items.count else { return }
                    body(items[index])
                }
            }
            continuation.resume()
        }
    }
}

/// A total that any thread adds to.
final class Sum: Sendable {
    private let value = Atomic<Int>(0)
    func add(_ item: Int) { value.add(item, ordering: .relaxed) }
    var total: Int { value.load(ordering: .relaxed) }
}
