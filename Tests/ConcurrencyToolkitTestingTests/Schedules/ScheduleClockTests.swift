import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Testing
import TestSupport

/// `ScheduleClock`: virtual time in a schedule (a 60 s sleep costs a step,
/// sleepers wake in deadline order, a replay gives the same order), real time
/// outside, and cancellation as `Task.sleep` has it.
@Suite struct ScheduleClockTests {
    let clock = ScheduleClock()

    /// A default actor whose method sleeps: the schedule's time reaches it.
    actor Napper {
        func nap(_ clock: ScheduleClock, _ duration: Duration) async throws -> Duration {
            let before = clock.now
            try await clock.sleep(for: duration)
            return before.duration(to: clock.now)
        }
    }

    @Test func aHundredSchedulesOfASixtySecondSleepTakeNoRealTime() async {
        let clock = clock
        let started = ContinuousClock.now
        let exploration = await exploreSchedules(100) {
            let before = clock.now
            async let child = Napper().nap(clock, .seconds(60))
            try await clock.sleep(for: .seconds(60))
            try #require(try await child == .seconds(60))
            try #require(before.duration(to: clock.now) == .seconds(60))
        }
        let elapsed = ContinuousClock.now - started
        #expect(exploration.schedulesRun == 100)
        #expect(exploration.failures.isEmpty, "\(exploration)")
        // Under 1 s when the machine is quiet (Performance.md); 60 s is a hang's bound, not a figure.
        #expect(elapsed < .seconds(60), "100 schedules of a 60 s sleep took \(elapsed)")
    }

    /// The traits run the test function as the body: the same virtual time.
    @Test(.exploringSchedules(50)) func underTheTraitASleepIsVirtualToo() async throws {
        let start = clock.now
        let realStart = ContinuousClock.now
        try await clock.sleep(for: .seconds(60))
        try #require(start.duration(to: clock.now) == .seconds(60))
        try #require(ContinuousClock.now - realStart < .seconds(30))
    }

    @Test func sleepersWakeInDeadlineOrderInEverySchedule() async {
        let clock = clock
        let exploration = await exploreSchedules(100) {
            let woken = Collected<String>()
            let start = clock.now
            async let slow: Void = { try await clock.sleep(for: .seconds(30)); woken.append("30 s") }()
            async let fast: Void = { try await clock.sleep(for: .seconds(10)); woken.append("10 s") }()
            _ = try await (slow, fast)
            try #require(woken.values == ["10 s", "30 s"])
            try #require(start.duration(to: clock.now) == .seconds(30))
        }
        #expect(exploration.schedulesRun == 100)
        #expect(exploration.failures.isEmpty, "\(exploration)")
    }

    @Test func outsideAScheduleItSleepsRealTime() async throws {
        let started = ContinuousClock.now
        let before = clock.now
        try await clock.sleep(for: .milliseconds(50))
        #expect(ContinuousClock.now - started >= .milliseconds(50))
        #expect(before.duration(to: clock.now) >= .milliseconds(50))
    }

    @Test func aCancelledSleeperThrowsInEverySchedule() async {
        let clock = clock
        let exploration = await exploreSchedules(100) {
            let start = clock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await clock.sleep(for: .seconds(60)) }
                group.addTask { await Task.yield() }
                try await group.next()
                group.cancelAll()
                // Cancelled before or while it slept: either way it throws.
                await #expect(throws: CancellationError.self) { try await group.next() }
                try #require(group.isEmpty)
            }
            try #require(start.duration(to: clock.now) < .seconds(60), "the cancelled sleep did not move time")
        }
        #expect(exploration.failures.isEmpty, "\(exploration)")
    }

    @Test func aCancelledSleeperThrowsOutsideASchedule() async {
        let sleeper = Task { [clock] in try await clock.sleep(for: .seconds(60)) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    /// Three tasks that yield and sleep, ties included: the log of their steps.
    static func steps(seed: UInt64) async throws -> [String] {
        let log = Collected<String>()
        let clock = ScheduleClock()
        try await replaySchedule(seed: seed, strategy: .random) {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (name, nap) in [("a", 5), ("b", 5), ("c", 2)] {
                    group.addTask {
                        log.append("\(name)0")
                        await Task.yield()
                        log.append("\(name)1")
                        try await clock.sleep(for: .seconds(nap))
                        log.append("\(name)2")
                        await Task.yield()
                        try await clock.sleep(for: .seconds(1))
                        log.append("\(name)3")
                    }
                }
                try await group.waitForAll()
            }
        }
        return log.values
    }

    @Test func aSeedReplaysTheSameOrderWithSleeps() async throws {
        for seed: UInt64 in [3, 17, 41] {
            let first = try await Self.steps(seed: seed)
            #expect(first.count == 12)
            for _ in 1..<10 {
                #expect(try await Self.steps(seed: seed) == first, "seed \(seed)")
            }
        }
        var orders = Set<[String]>()
        for seed: UInt64 in 1...20 { orders.insert(try await Self.steps(seed: seed)) }
        #expect(orders.count > 1, "the seeds pick the order, sleeps included")
    }
}

/// A toolkit API that takes a clock, on virtual time: a 60 s throttle slot
/// passes at once in a schedule. The reporter delivers from a `Task {}` of its
/// own, which runs on the real pool (it does not inherit the schedule's
/// executor): when other suites saturate the pool for over 2 s, as under
/// ThreadSanitizer in CI, that schedule is the exploration's documented false
/// deadlock (as in ToolkitUnderSchedulesTests). What is checked is that no
/// schedule completes with the values or the virtual time wrong, and that
/// most complete.
@Suite(.timingSensitive) struct ScheduleClockThrottleTests {
    @Test func throttledProgressDeliversItsLastValueWithoutRealWaiting() async {
        let started = ContinuousClock.now
        let exploration = await exploreSchedules(20) {
            let clock = ScheduleClock()
            let delivered = Collected<Int>()
            let start = clock.now
            let progress = ThrottledProgress<Int>(interval: .seconds(60), clock: clock) { delivered.append($0) }
            progress.report(1)  // delivered at once
            await delivered.waitForCount(1)
            progress.report(2)  // waits for the next slot, 60 s on
            await delivered.waitForCount(2)
            await progress.finish()
            try #require(delivered.values == [1, 2])
            try #require(start.duration(to: clock.now) >= .seconds(60))
        }
        #expect(exploration.schedulesRun == 20)
        #expect(exploration.failures.filter { !$0.isDeadlock }.isEmpty, "\(exploration)")
        #expect(exploration.failures.count < 10, "\(exploration)")
        #expect(ContinuousClock.now - started < .seconds(60), "20 slots of 60 s took \(ContinuousClock.now - started)")
    }
}
