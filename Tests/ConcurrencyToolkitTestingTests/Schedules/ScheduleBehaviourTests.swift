import ConcurrencyToolkit
@testable import ConcurrencyToolkitTesting
import Testing
import TestSupport

/// Determinism, virtual time, deadlocks and explorations side by side, with
/// bounds generous enough for a busy two-core machine.
/// `.timingSensitive`: the grace for work outside the schedule and the wall-time
/// bounds must not meet a suite that floods or blocks the pool.
@Suite(.timingSensitive) struct ScheduleBehaviourTests {
    /// Three tasks of three steps each; the order they ran in.
    static func threeTasksOrder(seed: UInt64) async throws -> String {
        let log = Collected<String>()
        try await replaySchedule(seed: seed) {
            await withTaskGroup(of: Void.self) { group in
                for name in ["a", "b", "c"] {
                    group.addTask {
                        for step in 1...3 {
                            log.append("\(name)\(step)")
                            await Task.yield()
                        }
                    }
                }
            }
        }
        return log.values.joined(separator: " ")
    }

    @Test func oneSeedGivesOneOrder30Times() async throws {
        let first = try await Self.threeTasksOrder(seed: 0xC0FFEE)
        for _ in 1..<30 {
            #expect(try await Self.threeTasksOrder(seed: 0xC0FFEE) == first)
        }
        #expect(first.split(separator: " ").count == 9)
    }

    @Test func sixtySeedsGiveAtLeastSixOrders() async throws {
        var orders = Set<String>()
        for seed in 1...60 { orders.insert(try await Self.threeTasksOrder(seed: UInt64(seed))) }
        #expect(orders.count >= 6, "\(orders.count) orders")
    }

    /// A short `Task.sleep` runs on real time (virtual time needs toolchain
    /// SPI, which the package does not use): the sleepers all wake, and come
    /// back into the schedule, with no deadlock reported.
    @Test func shortSleepsInSeveralTasksAllWake() async throws {
        let woke = Collected<Int>()
        try await replaySchedule(seed: 3) {
            await withTaskGroup(of: Void.self) { group in
                for milliseconds in [30, 10, 20] {
                    group.addTask {
                        try? await Task.sleep(for: .milliseconds(milliseconds))
                        woke.append(milliseconds)
                    }
                }
            }
        }
        #expect(woke.values.sorted() == [10, 20, 30])
    }

    @Test func aDeadlockIsAFailureNotAHang() async {
        let clock = ContinuousClock()
        let started = clock.now
        let kept = Collected<SafeContinuation<Int, Never>>()
        let exploration = await exploreSchedules(5) {
            // Waits for a resume that never comes; the continuation is kept, so it never leaks.
            _ = await withSafeContinuation(ifLeaked: 0) { kept.append($0) }
        }
        #expect(exploration.failures.count == 5)
        #expect(exploration.failures.allSatisfy { $0.isDeadlock })
        let deadlock = exploration.failures.first?.error as? ScheduleDeadlock
        #expect(deadlock?.steps ?? 0 > 0)
        // The registry lists it only while tracking is on, which other tests toggle.
        if PendingContinuations.isTracking, let deadlock {
            #expect(deadlock.pending.contains { $0.site.fileID.hasSuffix("ScheduleBehaviourTests.swift") }, "\(deadlock)")
        }
        // Not a hang: five 2 s graces take about 10 s (Performance.md); the
        // bound only has to catch a schedule that never ends, and stay clear
        // of a ThreadSanitizer build on a loaded machine (32 s seen in CI).
        #expect(clock.now - started < .seconds(120))
    }

    @Test func workOutsideTheScheduleGetsAGracePeriod() async {
        let lane = BlockingExecutor(width: 1)
        let exploration = await exploreSchedules(3) {
            try await lane.run { _ in _ = usleep(100_000) }   // 100 ms on a lane: not a deadlock
        }
        #expect(exploration.failures.isEmpty, "\(exploration)")
    }

    @Test func twoExplorationsAtOnceWithWorkOnThePool() async {
        let ticks = Counter()
        let unrelated = Task.detached {
            while !Task.isCancelled {
                ticks.increment()
                await Task.yield()
            }
        }
        async let overdraw = exploreSchedules(200) { try await withdrawTwiceAtOnce(correct: true) }
        async let loads = exploreSchedules(200) { try await loadTwiceAtOnce(correct: true) }
        let (first, second) = await (overdraw, loads)
        unrelated.cancel()
        #expect(first.failures.isEmpty, "\(first)")
        #expect(second.failures.isEmpty, "\(second)")
        #expect(ticks.count > 0)
    }

    @Test func aBodyThatNeverEndsStopsAtTheStepLimit() async {
        let exploration = await exploreSchedules(1) {
            while true { await Task.yield() }
        }
        #expect(exploration.failures.first?.error is ScheduleTooLong)
        #expect(exploration.failures.first?.isDeadlock == false)
    }
}
