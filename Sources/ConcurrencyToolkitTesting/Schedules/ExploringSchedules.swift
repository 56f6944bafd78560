import ConcurrencyToolkit
import Testing

/// A Swift Testing trait that runs the test under many schedules and records
/// one issue per failing schedule, naming its seed and the line that replays it.
///
/// ```swift
/// @Test(.exploringSchedules(300))
/// func twoWithdrawalsNeverOverdraw() async throws {
///     let account = Account(balance: 100)
///     async let first: Void = account.withdraw(80)
///     async let second: Void = account.withdraw(80)
///     _ = await (first, second)
///     try #require(await account.balance >= 0)   // throws: the schedule fails with its seed
/// }
/// ```
///
/// It stops after ``failureLimit`` failing schedules. A schedule fails as in
/// ``exploreSchedules(_:seed:_:)``; `#expect` records its issue without a
/// seed, so prefer `try #require`. A stuck schedule's task is cancelled and
/// waited for: a wait that ignores cancellation hangs the test (after its
/// issue was recorded). See <doc:ExploringSchedulesInTests>.
public struct ExploringSchedules: TestTrait, TestScoping {
    /// Schedules to run.
    ///
    /// For example: `#expect(ExploringSchedules(count: 300).count == 300)`
    public var count: Int
    /// Failing schedules recorded before the exploration stops.
    ///
    /// For example: `@Test(ExploringSchedules(count: 500, failureLimit: 1)) func cacheLoadsOnce() async throws { ... }`
    public var failureLimit: Int
    /// How jobs are picked; ``ScheduleStrategy/default`` unless said.
    ///
    /// For example: `@Test(ExploringSchedules(count: 500, strategy: .pct(depth: 3))) func ordersHold() async throws { ... }`
    public var strategy: ScheduleStrategy

    /// Creates the trait; usually spelled `.exploringSchedules(count)`.
    ///
    /// For example: `@Test(ExploringSchedules(count: 200, failureLimit: 3, strategy: .random)) func balanceHolds() async throws { ... }`
    public init(count: Int, failureLimit: Int = 3, strategy: ScheduleStrategy = .default) {
        self.count = count
        self.failureLimit = failureLimit
        self.strategy = strategy
    }

    /// One exploration per test case. The testing library calls this.
    ///
    /// For example: `@Test(.exploringSchedules(100), arguments: [1, 2]) func transfers(_ n: Int) async throws { ... }`
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs the test under the schedules and records the failures. The
    /// testing library calls this.
    ///
    /// For example: `try await ExploringSchedules(count: 10).provideScope(for: Test.current!, testCase: nil) { try await body() }`
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let exploration = await withoutActuallyEscaping(function) { body in
            await explore(count, seed: nil, strategy: strategy, stopAfter: failureLimit, waitsForStuckTasks: true, body)
        }
        for failure in exploration.failures {
            Issue.record(failure, sourceLocation: test.sourceLocation)
        }
    }
}

/// A Swift Testing trait that runs the test under exactly one schedule, the
/// one a failure's seed names, and fails the test as that schedule did.
///
/// ```swift
/// @Test(.replayingSchedule(seed: 0x5F3A09C2D1E4B877))
/// func overdrawFound() async throws {
///     try await withdrawTwiceAtOnce()   // the same order every run: set breakpoints, add prints
/// }
/// ```
public struct ReplayingSchedule: TestTrait, TestScoping {
    /// The schedule's seed, from a failure's replay line.
    ///
    /// For example: `#expect(ReplayingSchedule(seed: 7).seed == 7)`
    public var seed: UInt64
    /// The strategy the failure was found with.
    ///
    /// For example: `@Test(ReplayingSchedule(seed: 7, strategy: .pct(depth: 3, steps: 50))) func replays() async throws { ... }`
    public var strategy: ScheduleStrategy

    /// Creates the trait; usually spelled `.replayingSchedule(seed:)`.
    ///
    /// For example: `@Test(ReplayingSchedule(seed: 0x5F3A09C2D1E4B877)) func replays() async throws { ... }`
    public init(seed: UInt64, strategy: ScheduleStrategy = .default) {
        self.seed = seed
        self.strategy = strategy
    }

    /// One replay per test case. The testing library calls this.
    ///
    /// For example: `@Test(.replayingSchedule(seed: 7), arguments: [1, 2]) func replays(_ n: Int) async throws { ... }`
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Runs the test under the schedule and rethrows what it threw there.
    /// The testing library calls this.
    ///
    /// For example: `try await ReplayingSchedule(seed: 7).provideScope(for: Test.current!, testCase: nil) { try await body() }`
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let failure = await withoutActuallyEscaping(function) { body in
            await ScheduleRun.run(seed: seed, strategy: strategy, waitsForStuckTasks: true, body: body)
        }
        if let failure { throw failure }
    }
}

extension Trait where Self == ExploringSchedules {
    /// Runs the test under `count` schedules; one issue per failing schedule.
    ///
    /// For example: `@Test(.exploringSchedules(300)) func cacheLoadsOnce() async throws { ... }`
    public static func exploringSchedules(_ count: Int = 100) -> Self { Self(count: count) }
}

extension Trait where Self == ReplayingSchedule {
    /// Runs the test under the one schedule `seed` names.
    ///
    /// For example: `@Test(.replayingSchedule(seed: 0x5F3A09C2D1E4B877)) func overdrawReplays() async throws { ... }`
    public static func replayingSchedule(seed: UInt64) -> Self { Self(seed: seed) }
}
