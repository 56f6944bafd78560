import CHandOff
import ConcurrencyToolkit
import Dispatch
import NIOPosix

/// One line of the table: what it measures, how many operations a round
/// runs, and the round itself (the elapsed nanoseconds and, for a case
/// timed call by call, the round's 99th-percentile call).
struct Case: Sendable {
    struct Measured {
        var elapsed: Int64
        var p99: Int64? = nil
    }

    let name: String
    let operations: Int
    let measuredRound: @Sendable (Int) async throws -> Measured

    init(name: String, operations: Int, measuredRound: @escaping @Sendable (Int) async throws -> Measured) {
        self.name = name
        self.operations = operations
        self.measuredRound = measuredRound
    }

    /// A round that returns the elapsed nanoseconds only.
    init(name: String, operations: Int, _ round: @escaping @Sendable (Int) async throws -> Int64) {
        self.init(name: name, operations: operations) { Measured(elapsed: try await round($0)) }
    }

    /// A case that times each of `operations` calls of `body` on its own:
    /// a row for the mean and a row ", p99" for the round's 99th-percentile
    /// call (the call 1% of calls are slower than: a hand-off's tail on a
    /// busy machine). Two clock reads per call, tens of nanoseconds.
    static func timedEach(_ name: String, _ operations: Int, _ body: @escaping @Sendable (Int) async throws -> Int)
        -> Case
    {
        Case(name: name, operations: operations) { count in
            var sink = 0
            var each = [Int64](repeating: 0, count: count)
            let start = ContinuousClock.now
            var previous = start
            for i in 0..<count {
                sink &+= try await body(i)
                let now = ContinuousClock.now
                each[i] = (now - previous).nanoseconds
                previous = now
            }
            let elapsed = (previous - start).nanoseconds
            blackHole(sink)
            each.sort()
            return Measured(elapsed: elapsed, p99: each[min(count - 1, count * 99 / 100)])
        }
    }

    /// A case that times `operations` calls of `body`.
    static func timed(_ name: String, _ operations: Int, _ body: @escaping @Sendable (Int) async throws -> Int)
        -> Case
    {
        Case(name: name, operations: operations) { count in
            var sink = 0
            let start = ContinuousClock.now
            for i in 0..<count { sink &+= try await body(i) }
            let elapsed = ContinuousClock.now - start
            blackHole(sink)
            return elapsed.nanoseconds
        }
    }
}

@inline(never) func checkedWithHandler(_ i: Int) async throws -> Int {
    try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { $0.resume(returning: i) }
    } onCancel: {
    }
}

@inline(never) func safeWithOnCancel(_ i: Int) async throws -> Int {
    try await withSafeThrowingContinuation(onCancel: {}) { $0.resume(returning: i) }
}

@inline(never) func blackHole(_ value: Int) {
    if value == .min { print("") }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// Every case, in the order of the table.
func allCases(fast: Int, slow: Int, handOffs: Int) -> [Case] {
    let executor = BlockingExecutor(width: 2, label: "harness")
    let nioPool = NIOThreadPool(numberOfThreads: 2)
    nioPool.start()
    let queue = DispatchQueue(label: "harness.peer")
    return [
        .timed("`withUnsafeThrowingContinuation`, immediate resume", fast) { i in
            try await withUnsafeThrowingContinuation { $0.resume(returning: i) }
        },
        .timed("`withCheckedThrowingContinuation`", fast) { i in
            try await withCheckedThrowingContinuation { $0.resume(returning: i) }
        },
        .timed("`withSafeThrowingContinuation`", fast) { i in
            try await withSafeThrowingContinuation { $0.resume(returning: i) }
        },
        .timed("checked inside `withTaskCancellationHandler`", fast) { i in
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { $0.resume(returning: i) }
            } onCancel: {
            }
        },
        .timed("`withSafeThrowingContinuation(onCancel:)`", fast) { i in
            try await withSafeThrowingContinuation(onCancel: {}) { $0.resume(returning: i) }
        },
        // The two above again, each behind a function that is not inlined:
        // the small peer closure is inlined into the timing loop, which drops
        // two of its executor hops (counted with a uprobe on
        // swift_task_switch), and ours is too large to be; here neither is.
        .timed("checked inside `withTaskCancellationHandler`, not inlined", fast) { i in
            try await checkedWithHandler(i)
        },
        .timed("`withSafeThrowingContinuation(onCancel:)`, not inlined", fast) { i in
            try await safeWithOnCancel(i)
        },
        .timedEach("`DispatchQueue.async` + checked continuation, back to back", slow) { i in
            try await withCheckedThrowingContinuation { continuation in
                queue.async { continuation.resume(returning: i) }
            }
        },
    ] + deliveryCases(slow: slow) + [
        .timedEach("`BlockingExecutor(width: 2).run { i }`, back to back", slow) { i in
            try await executor.run { i }
        },
        .timedEach("`NIOThreadPool(numberOfThreads: 2).runIfActive { i }`, back to back", slow) { i in
            try await nioPool.runIfActive { i }
        },
        Case(name: "two threads handing a token through a futex, both parking (C)", operations: handOffs) {
            chandoff_ping_pong(Int64($0), 0)
        },
        Case(name: "the same, spinning up to 2,000 pauses before parking (C)", operations: handOffs) {
            chandoff_ping_pong(Int64($0), 2_000)
        },
    ]
}
