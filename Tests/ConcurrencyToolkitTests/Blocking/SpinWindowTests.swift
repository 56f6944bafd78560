@testable import ConcurrencyToolkit
import Dispatch
import Synchronization
import Testing
import TestSupport

/// The spin windows as pure transitions (``SpinWindow``), and the lane's
/// spin-then-idle hand-off: every order in which a
/// submission can meet a lane that is spinning or giving up, without threads.
@Suite struct SpinWindowTests {
    typealias State = BlockingQueueStateMachine<String, String>

    static func spinning(width: Int = 2) -> State {
        var state = State(width: width, laneSpin: SpinWindow(budget: 20_000, isEnabled: true))
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
        #expect(state.laneSpin.budget >= 4_000)
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
        var state = State(width: 2, laneSpin: SpinWindow(budget: 20_000, isEnabled: true))
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
        var state = State(width: 1, laneSpin: SpinWindow(isEnabled: true))
        _ = state.submit("a", isCancelled: false, now: 0)
        #expect(state.shutdown(waiter: "w").resumeNow == false)
        guard case .idle(let waiters) = state.laneFinished(0, .completed(wait: .zero), now: 1), waiters == ["w"] else {
            Issue.record("a shut-down executor's last lane should go idle and resume the waiter")
            return
        }
    }

    @Test func theWindowGrowsToCatchShortGapsAndFallsToZeroWhenJobsComeSeldom() {
        var spin = SpinWindow(budget: 1_000, isEnabled: true)
        spin.learn(gap: 10_000)
        #expect(spin.budget == 20_000)
        spin.learn(gap: 40_000)
        #expect(spin.budget == SpinWindow.longest)
        for _ in 0..<20 { spin.learn(gap: 1_000_000) }
        #expect(spin.budget == 0)
        spin.caught(after: 1_000_000)
        #expect(spin.budget == SpinWindow.longest)
    }

    @Test func aSingleCoreNeverSpins() {
        var spin = SpinWindow(budget: 20_000, isEnabled: false)
        spin.learn(gap: 1_000)
        spin.caught(after: 1_000)
        #expect(spin.budget == 0)
        var state = State(width: 1, laneSpin: spin)
        _ = state.submit("a", isCancelled: false)
        guard case .idle = state.laneFinished(0, .completed(wait: .zero)) else {
            Issue.record("a lane without a spin budget should go idle")
            return
        }
    }

    @Test func anExecutorSpinsOnBothSidesWhenItHasMoreThanOneCore() {
        let executor = BlockingExecutor(width: 2, label: "spin-default")
        let multicore = activeProcessorCount > 1
        #expect(executor.state.withLock { $0.laneSpin.isEnabled } == multicore)
        #expect(executor.state.withLock { $0.callerSpin.isEnabled } == multicore)
        executor.disableSpinning()
        #expect(executor.state.withLock { $0.laneSpin.budget + $0.callerSpinBudget } == 0)
    }

    @Test func theCallersWindowIsLearnedFromHowLongJobsTakeAndOfferedOnlyWhenALaneHasTheJob() {
        var state = State(width: 1, callerSpin: SpinWindow(budget: 20_000, isEnabled: true))
        // Jobs of 5 µs from submission to end: the window covers twice that.
        #expect(state.submit("a", isCancelled: false, now: 0) == .start(lane: 0))
        _ = state.laneFinished(0, .completed(wait: .zero), now: 5_000, submittedAt: 0)
        #expect(state.callerSpinBudget == 20_000)
        // Jobs of 1 ms: the window halves per job, down to none.
        for i in 1...10 {
            let start = UInt64(i) * 10_000_000
            _ = state.submit("long", isCancelled: false, now: start)
            _ = state.laneFinished(0, .completed(wait: .zero), now: start + 1_000_000, submittedAt: start)
        }
        #expect(state.callerSpinBudget == 0)
        // Short again: it comes back.
        _ = state.submit("short", isCancelled: false, now: 200_000_000)
        _ = state.laneFinished(0, .completed(wait: .zero), now: 200_003_000, submittedAt: 200_000_000)
        #expect(state.callerSpinBudget == 6_000)
        // Task slices have no waiting caller: they teach it nothing.
        _ = state.submit("slice", isCancelled: false, now: 300_000_000)
        _ = state.laneFinished(0, .completed(wait: .zero), now: 310_000_000)
        #expect(state.callerSpinBudget == 6_000)
    }

    @Test func theSpinLoopStopsWhenItsConditionHoldsAndWhenItsWindowEnds() {
        var polls = 0
        let caught = SpinWindow.spin(nanoseconds: 1_000_000_000) {
            polls += 1
            return polls == 100
        }
        #expect(caught.done)
        #expect(polls == 100)
        let missed = SpinWindow.spin(nanoseconds: 200_000) { false }
        #expect(!missed.done)
        #expect(missed.waited >= 200_000)
    }

    @Test(.timeLimit(.minutes(1)))
    func aCallerWhoseJobWaitsInTheFIFOIsOfferedNoWindow() async throws {
        let executor = BlockingExecutor(width: 1, label: "spin-offer")
        // A machine where only the caller runs: whether the window is offered
        // must not depend on what else this machine runs meanwhile.
        executor.runQueue.pin(runnable: 1)
        let release = DispatchSemaphore(value: 0)
        // The one lane is busy: the next job waits in the FIFO.
        async let blocker: Void = executor.run { release.wait() }
        while executor.metrics.running == 0 { try await Task.sleep(for: .milliseconds(1)) }
        let windows = Mutex<[UInt64]>([])
        // A job returning `value` to `caller`, made as `run` makes it.
        @Sendable func job(returning value: Int, to caller: SafeContinuation<Int, any Error>) -> BlockingJob {
            TypedBlockingJob(
                lifecycle: BlockingJob.Lifecycle(BlockingJobStateMachine()), priority: .medium, trace: nil,
                body: UncheckedSendable({ (_: BlockingExecutor.JobContext) in value }), caller: caller)
        }
        let value = try await withSafeThrowingContinuation { (caller: SafeContinuation<Int, any Error>) in
            windows.withLock { $0.append(executor.submit(job(returning: 7, to: caller))) }
            release.signal()
        }
        try await blocker
        #expect(value == 7)
        #expect(windows.withLock { $0 } == [0])
        // With the lane free again, a job that starts at once is offered the
        // window (on more than one core).
        let idle = try await withSafeThrowingContinuation { (caller: SafeContinuation<Int, any Error>) in
            windows.withLock { $0.append(executor.submit(job(returning: 8, to: caller))) }
        }
        #expect(idle == 8)
        #expect((windows.withLock { $0.last ?? 0 } > 0) == (activeProcessorCount > 1))
        await executor.shutdown()
    }
}
