import ConcurrencyToolkit
import Dispatch

/// Runs `body` under `count` schedules, each a different order of its jobs
/// picked by a seed, and returns the ones that failed with the seed that
/// replays each.
///
/// ```swift
/// let exploration = await exploreSchedules(300) {
///     let account = Account(balance: 100)
///     async let first: Void = account.withdraw(80)
///     async let second: Void = account.withdraw(80)
///     _ = await (first, second)
///     try #require(await account.balance >= 0)
/// }
/// #expect(exploration.failures.isEmpty, "\(exploration)")
/// ```
///
/// A schedule fails when `body` throws, misuses a safe continuation,
/// deadlocks (nothing can run for 2 s) or runs 100,000 jobs; `#expect` does
/// not fail it, so use `try #require`. `body`, its child tasks and the default
/// actors they call take part; `Task {}`, main-actor code and other executors
/// do not. `seed` picks the schedules (`nil` draws one). Cancelling stops after
/// the running schedule. See <doc:ExploringSchedulesInTests>.
public func exploreSchedules(
    _ count: Int = 100, seed: UInt64? = nil, _ body: @escaping @Sendable () async throws -> Void
) async -> ScheduleExploration {
    await exploreSchedules(count, seed: seed, strategy: .default, body)
}

/// ``exploreSchedules(_:seed:_:)`` with a strategy other than the default.
///
/// For example: `let exploration = await exploreSchedules(500, strategy: .pct(depth: 3)) { try await loadTwiceAtOnce() }`
public func exploreSchedules(
    _ count: Int, seed: UInt64? = nil, strategy: ScheduleStrategy,
    _ body: @escaping @Sendable () async throws -> Void
) async -> ScheduleExploration {
    await explore(count, seed: seed, strategy: strategy, stopAfter: .max, body)
}

/// Runs exactly the schedule that `seed` names, and rethrows what `body`
/// threw in it: paste a failure's replay line into a test to debug it.
///
/// ```swift
/// try await replaySchedule(seed: 0x5F3A09C2D1E4B877) {
///     try await withdrawTwiceAtOnce()
/// }
/// ```
///
/// A deadlock throws ``ScheduleDeadlock``; a misused continuation, in a body
/// that returned, the `ContinuationMisuse`. The order is the same in every
/// run while the body and the toolchain are.
public func replaySchedule(seed: UInt64, _ body: @escaping @Sendable () async throws -> Void) async throws {
    try await replaySchedule(seed: seed, strategy: .default, body)
}

/// ``replaySchedule(seed:_:)`` for a failure found with another strategy.
///
/// For example: `try await replaySchedule(seed: 0x0C2D1E4B8775F3A0, strategy: .pct(depth: 3, steps: 50)) { try await body() }`
public func replaySchedule(
    seed: UInt64, strategy: ScheduleStrategy, _ body: @escaping @Sendable () async throws -> Void
) async throws {
    if let failure = await ScheduleRun.run(seed: seed, strategy: strategy, body: body) {
        throw failure.error
    }
}

/// The exploration loop, with the traits' limit on failures.
func explore(
    _ count: Int, seed: UInt64?, strategy: ScheduleStrategy, stopAfter limit: Int, waitsForStuckTasks: Bool = false,
    _ body: @escaping @Sendable () async throws -> Void
) async -> ScheduleExploration {
    let base = seed ?? UInt64.random(in: .min ... .max)
    var exploration = ScheduleExploration(schedulesRun: 0, failures: [], seed: base)
    for index in 0..<max(0, count) {
        if Task.isCancelled || exploration.failures.count >= limit { break }
        let seed = ScheduleRandom.scheduleSeed(base: base, index: index)
        exploration.schedulesRun += 1
        if let failure = await ScheduleRun.run(
            seed: seed, strategy: strategy, waitsForStuckTasks: waitsForStuckTasks, body: body
        ) {
            exploration.failures.append(failure)
        }
    }
    return exploration
}

/// One schedule: its executor, the body's task, the driver thread, its failure.
enum ScheduleRun {
    static let deadlockGrace = Duration.seconds(2)
    static let stepLimit = 100_000

    /// Runs one schedule. A stuck one leaves its tasks suspended for good, unless
    /// `waitsForStuckTasks` (for the traits' non-escaping test function): then
    /// its task is cancelled and waited for, so `body` is not used after return.
    static func run(
        seed: UInt64, strategy: ScheduleStrategy, waitsForStuckTasks: Bool = false,
        body: @escaping @Sendable () async throws -> Void
    ) async -> ScheduleFailure? {
        let executor = ScheduleExecutor(strategy: strategy, seed: seed)
        let outcome = Lock<(error: (any Error)?, misuses: [ContinuationMisuse])?>(nil)
        let started = ContinuousClock.now
        // Enqueued before the driver starts, so the first job is always there.
        let task = Task(executorPreference: executor) {
            // The task-local names the schedule to `ScheduleClock`.
            let (error, misuses) = await ScheduleContext.$executor.withValue(executor) {
                await withContinuationMisuseRecorded { () async -> (any Error)? in
                    do {
                        try await body()
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            outcome.withLock { $0 = (error, misuses) }
            executor.bodyFinished()
        }
        let end = await withCheckedContinuation { (done: CheckedContinuation<ScheduleExecutor.End, Never>) in
            // A serial queue overcommits: the driver never waits for a pool thread.
            DispatchQueue(label: "ConcurrencyToolkitTesting.schedule").async { done.resume(returning: executor.drive(
                deadlockGrace: deadlockGrace, stepLimit: stepLimit, abandonsStuck: !waitsForStuckTasks)) }
        }
        let failure = { (error: any Error, isDeadlock: Bool, steps: Int, misuses: [ContinuationMisuse]) in
            ScheduleFailure(seed: seed, strategy: strategy, error: error, isDeadlock: isDeadlock, misuses: misuses, steps: steps)
        }
        let elapsed = ContinuousClock.now - started
        let pending = PendingContinuations.snapshot().pending.filter { $0.age <= elapsed }
        if case .finished = end {} else if waitsForStuckTasks {
            task.cancel()
            await task.value
        }
        switch end {
        case .deadlock(let steps):
            return failure(ScheduleDeadlock(steps: steps, pending: pending, grace: deadlockGrace), true, steps, [])
        case .tooLong(let steps):
            return failure(ScheduleTooLong(steps: steps), false, steps, [])
        case .finished:
            let (error, misuses) = outcome.withLock { $0 } ?? (nil, [])
            guard let error = error ?? misuses.first.map({ $0 as any Error }) else { return nil }
            return failure(error, false, executor.steps, misuses)
        }
    }
}
