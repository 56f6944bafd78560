import ConcurrencyToolkit
import Dispatch
import Synchronization

// The per-item workloads of issue 29 and the peers a user would write
// instead, written once for both harnesses: ToolkitBenchmarks
// (package-benchmark, cases one after another, malloc and context-switch
// counts) and HandOffHarness (PER_ITEM=1, interleaved rounds:
// Benchmarks/Scripts/per-item.sh).

/// `concurrentForEach` over `items`, `width` at a time, with a trivial body.
public func toolkitForEach(_ items: [Int], width: Int, into sum: Sum) async {
    await items.concurrentForEach(maxConcurrency: width) { sum.add($0) }
}

/// One tiny `executor.run` job per item, `width` at a time through
/// `concurrentForEach`: what File Squeezer does per batch of tiny files.
public func toolkitRunJobs(_ items: [Int], width: Int, on executor: BlockingExecutor, into sum: Sum) async throws {
    try await items.concurrentForEach(maxConcurrency: width) { item in
        try await executor.run { sum.add(item) }
    }
}

/// The peer of ``toolkitRunJobs(_:width:on:into:)`` a careful user writes:
/// a width-limited task group, each child waiting on a checked continuation
/// that a serial queue (one per lane) resumes.
public func handWrittenRunJobs(_ items: [Int], width: Int, lanes: [DispatchQueue], into sum: Sum) async {
    await handWrittenForEach(items, width: width) { item in
        await withCheckedContinuation { continuation in
            lanes[item % lanes.count].async {
                sum.add(item)
                continuation.resume()
            }
        }
    }
}

/// The width-limited task group a careful user writes: one child per item.
public func handWrittenForEach(
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
public func dispatchForEach(_ items: [Int], width: Int, _ body: @escaping @Sendable (Int) -> Void) async {
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
public final class Sum: Sendable {
    private let value = Atomic<Int>(0)
    public init() {}
    public func add(_ item: Int) { value.add(item, ordering: .relaxed) }
    public var total: Int { value.load(ordering: .relaxed) }
}
