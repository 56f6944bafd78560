@testable import ConcurrencyToolkit
import Testing

/// The spin-then-idle hand-off as pure transitions: every order in which a
/// submission can meet a lane that is spinning or giving up, without threads.
@Suite struct LaneSpinTests {
    typealias State = BlockingQueueState<String, String>

    static func spinning(width: Int = 2) -> State {
        var state = State(width: width, spin: LaneSpin(budget: 20_000, isEnabled: true))
        #expect(state.submit("a", isCancelled: false, now: 0) == .start(lane: 0))
        guard case .spin(let budget) = state.laneFinished(0, .completed(wait: .zero), now: 1_000) else {
            Issue.record("a lane that ran out of work should spin")
            return state
        }
        #expect(budget == 20_000)
        return state
    }

    @Test func aJobSubmittedWhileALaneSpinsIsHandedToItWithoutStartingALane() {
        var state = Self.spinning()
        #expect(state.submit("b", isCancelled: false, now: 3_000) == .handOff(lane: 0))
        #expect(state.metrics.running == 1)
        guard case .run("b") = state.spinEnded(0, waited: 2_000) else {
            Issue.record("the spinning lane should run the job handed to it")
            return
        }
        // Caught 2 µs in: the window stays at least twice that.
        #expect(state.spin.budget >= 4_000)
    }

    @Test func aJobSubmittedAfterTheSpinEndedStartsTheIdleLaneAsWithoutSpinning() {
        var state = Self.spinning()
        guard case .idle(let waiters) = state.spinEnded(0, waited: 20_000), waiters.isEmpty else {
            Issue.record("a spin that caught nothing should leave the lane idle")
            return
        }
        #expect(state.metrics.running == 0)
        #expect(state.submit("b", isCancelled: false, now: 30_000) == .start(lane: 0))
    }

    @Test func aJobHandedOverAsTheSpinTimesOutIsStillTakenByThatLane() {
        // The lane's window ran out, but the submission got the lock first:
        // the lane's spinEnded must take the job, not go idle over it.
        var state = Self.spinning()
        #expect(state.submit("b", isCancelled: false, now: 21_000) == .handOff(lane: 0))
        guard case .run("b") = state.spinEnded(0, waited: 20_000) else {
            Issue.record("a job handed over at the last moment was stranded")
            return
        }
    }

    @Test func atMostOneLaneSpinsAndNoneWhileAHandOffIsOutstanding() {
        var state = State(width: 2, spin: LaneSpin(budget: 20_000, isEnabled: true))
        #expect(state.submit("a", isCancelled: false, now: 0) == .start(lane: 0))
        #expect(state.submit("b", isCancelled: false, now: 0) == .start(lane: 1))
        guard case .spin = state.laneFinished(0, .completed(wait: .zero), now: 1_000) else {
            Issue.record("the first lane out of work should spin")
            return
        }
        // Lane 0 spins already: lane 1 goes idle instead.
        guard case .idle = state.laneFinished(1, .completed(wait: .zero), now: 2_000) else {
            Issue.record("a second lane should not spin")
            return
        }
        #expect(state.submit("c", isCancelled: false, now: 3_000) == .handOff(lane: 0))
        // Lane 0 has not picked c up yet; lane 1 must not spin meanwhile.
        #expect(state.submit("d", isCancelled: false, now: 3_500) == .start(lane: 1))
        guard case .idle = state.laneFinished(1, .completed(wait: .zero), now: 4_000) else {
            Issue.record("no lane should spin while a hand-off is outstanding")
            return
        }
        guard case .run("c") = state.spinEnded(0, waited: 3_000) else {
            Issue.record("lane 0 should take c")
            return
        }
    }

    @Test func aShutDownExecutorDoesNotSpinAndItsWaitersAreResumedWhenTheLastLaneStops() {
        var state = State(width: 1, spin: LaneSpin(isEnabled: true))
        _ = state.submit("a", isCancelled: false, now: 0)
        #expect(state.shutdown(waiter: "w").resumeNow == false)
        guard case .idle(let waiters) = state.laneFinished(0, .completed(wait: .zero), now: 1), waiters == ["w"] else {
            Issue.record("a shut-down executor's last lane should go idle and resume the waiter")
            return
        }
    }

    @Test func theWindowGrowsToCatchShortGapsAndFallsToZeroWhenJobsComeSeldom() {
        var spin = LaneSpin(budget: 1_000, isEnabled: true)
        spin.missed(gap: 10_000)
        #expect(spin.budget == 20_000)
        spin.missed(gap: 40_000)
        #expect(spin.budget == LaneSpin.longest)
        for _ in 0..<20 { spin.missed(gap: 1_000_000) }
        #expect(spin.budget == 0)
        spin.caught(after: 1_000_000)
        #expect(spin.budget == LaneSpin.longest)
    }

    @Test func aSingleCoreNeverSpins() {
        var spin = LaneSpin(budget: 20_000, isEnabled: false)
        spin.missed(gap: 1_000)
        spin.caught(after: 1_000)
        #expect(spin.budget == 0)
        var state = State(width: 1, spin: spin)
        _ = state.submit("a", isCancelled: false)
        guard case .idle = state.laneFinished(0, .completed(wait: .zero)) else {
            Issue.record("a lane without a spin budget should go idle")
            return
        }
    }

    @Test func anExecutorStartsWithTheSpinOffAndTheStressTestCanTurnItOn() {
        // Off by default: it measured no gain over Dispatch's own lingering
        // worker (Performance.md, "Primitives in a plain program").
        let executor = BlockingExecutor(width: 2, label: "spin-default")
        #expect(executor.state.withLock { $0.spin.isEnabled } == false)
        executor.enableLaneSpin()
        #expect(executor.state.withLock { $0.spin.isEnabled } == (activeProcessorCount > 1))
    }
}
