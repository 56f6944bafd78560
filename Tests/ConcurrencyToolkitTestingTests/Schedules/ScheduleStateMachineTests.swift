@testable import ConcurrencyToolkitTesting
import Testing

/// The pure parts of a schedule, without threads: the picker and the state
/// machine's jobs, virtual time and phases.
@Suite struct ScheduleStateMachineTests {
    /// Picks from three always-runnable tasks, `count` times.
    static func picks(_ strategy: ScheduleStrategy, seed: UInt64, count: Int = 30) -> [Int] {
        var picker = SchedulePicker(strategy: strategy, seed: seed)
        return (0..<count).map { _ in picker.pick(tasks: [0, 1, 2]) }
    }

    @Test(arguments: [ScheduleStrategy.random, .pct(depth: 3, steps: 10)])
    func aSeedGivesTheSamePicksAndSeedsDiffer(_ strategy: ScheduleStrategy) {
        #expect(Self.picks(strategy, seed: 9) == Self.picks(strategy, seed: 9))
        let distinct = Set((1...20).map { Self.picks(strategy, seed: UInt64($0)) })
        #expect(distinct.count > 3)
    }

    @Test func pctWithoutChangesRunsOneTaskWhileItCan() {
        for seed in UInt64(1)...20 {
            let picks = Self.picks(.pct(depth: 1), seed: seed)
            #expect(Set(picks).count == 1, "seed \(seed): \(picks)")
        }
    }

    @Test func pctChangesPriorityAtMostDepthMinusOneTimes() {
        for seed in UInt64(1)...50 {
            let picks = Self.picks(.pct(depth: 3, steps: 20), seed: seed)
            let switches = zip(picks, picks.dropFirst()).filter { $0 != $1 }.count
            #expect(switches <= 2, "seed \(seed): \(picks)")
        }
    }

    @Test func sleepersWakeInDeadlineOrderWhenNothingElseRuns() {
        var machine = ScheduleStateMachine<String, String>(strategy: .random, seed: 1)
        for (waker, seconds) in [("late", 60), ("early", 10), ("also early", 10)] {
            let id = machine.startSleep()
            guard case .asleep = machine.sleep(id, until: .seconds(seconds), waker: waker) else {
                Issue.record("asleep"); return
            }
        }
        _ = machine.enqueue("now", key: 4)
        guard case .run("now") = machine.next() else { Issue.record("the runnable job first"); return }
        guard case .idle(sleepers: true) = machine.next() else { Issue.record("idle with sleepers"); return }
        #expect(machine.advanceTime() == ["early", "also early"], "deadline order, ties by arrival")
        #expect(machine.now == .seconds(10))
        #expect(machine.advanceTime() == ["late"])
        #expect(machine.now == .seconds(60))
        #expect(machine.advanceTime().isEmpty)
        guard case .idle(sleepers: false) = machine.next() else { Issue.record("idle, no one asleep"); return }
        let id = machine.startSleep()
        guard case .due = machine.sleep(id, until: .seconds(30), waker: "past") else { Issue.record("due"); return }
    }

    @Test func aCancelledSleepIsTakenOutOrRefused() {
        var machine = ScheduleStateMachine<Int, String>(strategy: .random, seed: 1)
        let asleep = machine.startSleep()
        _ = machine.sleep(asleep, until: .seconds(5), waker: "asleep")
        #expect(machine.cancelSleep(asleep) == "asleep")
        #expect(machine.advanceTime().isEmpty, "a cancelled sleeper never wakes")
        let early = machine.startSleep()
        #expect(machine.cancelSleep(early) == nil, "not asleep yet")
        guard case .cancelled = machine.sleep(early, until: .seconds(5), waker: "early") else {
            Issue.record("refused"); return
        }
        #expect(machine.cancelSleep(early) == nil)
    }

    @Test func anEndedScheduleHandsBackItsSleepersWithTheTimeLeft() {
        var machine = ScheduleStateMachine<Int, String>(strategy: .random, seed: 1)
        _ = machine.sleep(machine.startSleep(), until: .seconds(5), waker: "short")
        _ = machine.sleep(machine.startSleep(), until: .seconds(8), waker: "long")
        _ = machine.advanceTime()
        let left = machine.end(abandoned: false, onlyIfIdle: true)
        #expect(left?.sleepers.map(\.waker) == ["long"])
        #expect(left?.sleepers.map(\.left) == [.seconds(3)])
        guard case .ended = machine.sleep(machine.startSleep(), until: .seconds(9), waker: "late") else {
            Issue.record("over: real time"); return
        }
    }

    @Test func anEndedScheduleForwardsAndAnAbandonedOneDrops() {
        var finished = ScheduleStateMachine<Int, Int>(strategy: .random, seed: 1)
        finished.bodyFinished()
        #expect(finished.phase == .draining)
        _ = finished.enqueue(1, key: 1)
        let refusedWhileRunnable = finished.end(abandoned: false, onlyIfIdle: true) == nil
        #expect(refusedWhileRunnable)
        let left = finished.end(abandoned: false, onlyIfIdle: false)
        #expect(left?.jobs == [1], "what was left is handed back to be forwarded")
        guard case .forward(2) = finished.enqueue(2, key: 2) else { Issue.record("forwarded"); return }

        var stuck = ScheduleStateMachine<Int, Int>(strategy: .random, seed: 1)
        _ = stuck.enqueue(1, key: 1)
        let refused = stuck.end(abandoned: true, onlyIfIdle: true) == nil
        #expect(refused, "a job can still run: no deadlock")
        _ = stuck.next()
        let ended = stuck.end(abandoned: true, onlyIfIdle: true) != nil
        #expect(ended)
        guard case .drop = stuck.enqueue(2, key: 2) else { Issue.record("dropped"); return }
    }

    @Test func tasksAreNumberedByFirstAppearanceNotAddress() {
        var a = ScheduleStateMachine<Int, Int>(strategy: .pct(depth: 1), seed: 5)
        var b = ScheduleStateMachine<Int, Int>(strategy: .pct(depth: 1), seed: 5)
        for (job, key) in [(1, UInt(0x1000)), (2, 0x2000), (3, 0x1000)] { _ = a.enqueue(job, key: key) }
        for (job, key) in [(1, UInt(0x9000)), (2, 0x5000), (3, 0x9000)] { _ = b.enqueue(job, key: key) }
        var orderA: [Int] = [], orderB: [Int] = []
        while case .run(let job) = a.next() { orderA.append(job) }
        while case .run(let job) = b.next() { orderB.append(job) }
        #expect(orderA == orderB)
    }
}
