@testable import ConcurrencyToolkit
import Synchronization
import Testing

/// The spin windows on a busy machine (issue 40): a window is none while the
/// run queue leaves no core for both sides of a hand-off, and comes back as
/// learned once it does. Pure transitions, no threads.
@Suite struct SpinWindowBusyMachineTests {
    typealias State = BlockingQueueStateMachine<String, String>

    @Test func aWindowIsNoneWhileOtherThreadsLeaveNoCoreForBothSides() {
        var spin = SpinWindow(budget: 20_000, isEnabled: true, cores: 2)
        spin.observe(otherRunnableThreads: 0)
        #expect(spin.window == 20_000)
        // One rival on two cores: the waiter or the thread it waits for has none.
        spin.observe(otherRunnableThreads: 1)
        #expect(spin.window == 0)
        // Learning goes on meanwhile, and the learned window is what comes back.
        spin.learn(gap: 15_000)
        #expect(spin.budget == 30_000)
        #expect(spin.window == 0)
        // Slow to resume: one free reading is not enough, five in a row are.
        for _ in 1..<SpinWindow.freeReadingsToSpin {
            spin.observe(otherRunnableThreads: 0)
            #expect(spin.window == 0)
        }
        spin.observe(otherRunnableThreads: 0)
        #expect(spin.window == 30_000)
        // Quick to stop: one busy reading among free ones.
        spin.observe(otherRunnableThreads: 3)
        #expect(spin.window == 0)

        var wide = SpinWindow(budget: 20_000, isEnabled: true, cores: 8)
        wide.observe(otherRunnableThreads: 6)
        #expect(wide.window == 20_000)
        wide.observe(otherRunnableThreads: 7)
        #expect(wide.window == 0)
    }

    @Test func aWindowThatIsOffStaysOffWhateverTheRunQueue() {
        var spin = SpinWindow(budget: 20_000, isEnabled: false, cores: 2)
        spin.observe(otherRunnableThreads: 0)
        #expect(spin.window == 0)
        #expect(!spin.coresAreBusy)
    }

    @Test func theObserverAndASpinningLaneAreTheExecutorsOwnNotRivals() {
        let spin = SpinWindow(budget: 20_000, isEnabled: true, cores: 2)
        var state = State(width: 1, laneSpin: spin, callerSpin: spin)
        state.observeRunQueue(runnable: 1, now: 0)  // the caller alone
        #expect(state.submit("a", isCancelled: false, now: 0) == .start(lane: 0))
        guard case .spin = state.laneFinished(0, .completed(wait: .zero), now: 2_000, submittedAt: 0) else {
            Issue.record("with a core free, a lane out of work should spin")
            return
        }
        // The caller and the spinning lane: two runnable, both ours.
        state.observeRunQueue(runnable: 2, now: 2_500)
        #expect(state.callerSpinBudget == 20_000)
        // A third thread, another process's: no core is left for a spin.
        state.observeRunQueue(runnable: 3, now: 2_600)
        #expect(state.callerSpinBudget == 0)
        // The lane already spinning still takes the job handed to it...
        #expect(state.submit("b", isCancelled: false, now: 3_000) == .handOff(lane: 0))
        guard case .run("b") = state.spinEnded(0, waited: 1_000) else {
            Issue.record("a spinning lane should take the job handed to it")
            return
        }
        // ...but goes idle after it instead of spinning again.
        guard case .idle = state.laneFinished(0, .completed(wait: .zero), now: 5_000, submittedAt: 3_000) else {
            Issue.record("a lane should not spin while the cores are busy")
            return
        }
        // The rival is gone: after five free readings in a row, both
        // windows open again, as learned.
        for _ in 0..<SpinWindow.freeReadingsToSpin { state.observeRunQueue(runnable: 1, now: 5_500) }
        #expect(state.callerSpinBudget == 20_000)
        #expect(state.submit("c", isCancelled: false, now: 6_000) == .start(lane: 0))
        guard case .spin = state.laneFinished(0, .completed(wait: .zero), now: 7_000, submittedAt: 6_000) else {
            Issue.record("with the cores free again, the lane should spin")
            return
        }
    }

    @Test func aLaneThatJustWentIdleIsStillOursNotARival() {
        // The lane does not spin, so it goes idle after each job; its thread
        // is then still on its way back to Dispatch, runnable, when the
        // caller submits the next job and reads the run queue.
        var state = State(
            width: 1, laneSpin: SpinWindow(isEnabled: false),
            callerSpin: SpinWindow(budget: 20_000, isEnabled: true, cores: 2))
        #expect(state.submit("a", isCancelled: false, now: 0) == .start(lane: 0))
        guard case .idle = state.laneFinished(0, .completed(wait: .zero), now: 10_000, submittedAt: 0) else {
            Issue.record("a lane that does not spin should go idle")
            return
        }
        // The caller and that lane, 10 µs later: both ours, a core is free.
        state.observeRunQueue(runnable: 2, now: 20_000)
        #expect(state.callerSpinBudget == 20_000)
        // A millisecond later the lane is long gone: two runnable threads are
        // the caller and a rival, and no core is left for a spin.
        state.observeRunQueue(runnable: 2, now: 1_010_000)
        #expect(state.callerSpinBudget == 0)
        // A lane running a job is the thread the caller waits for, not a rival.
        for _ in 0..<SpinWindow.freeReadingsToSpin { state.observeRunQueue(runnable: 1, now: 2_000_000) }
        #expect(state.submit("b", isCancelled: false, now: 2_000_000) == .start(lane: 0))
        state.observeRunQueue(runnable: 2, now: 3_000_000)
        #expect(state.callerSpinBudget == 20_000)
        state.observeRunQueue(runnable: 3, now: 3_000_000)
        #expect(state.callerSpinBudget == 0)
    }

    @Test(.timeLimit(.minutes(1)))
    func anExecutorOnABusyMachineOffersTheCallerNoWindowAndStillRunsTheJob() async throws {
        // 64 runnable threads: no core is free, whatever this machine runs.
        let executor = BlockingExecutor(width: 1, label: "spin-busy")
        executor.runQueue.pin(runnable: 64)
        let windows = Mutex<[UInt64]>([])
        let value = try await withSafeThrowingContinuation { (caller: SafeContinuation<Int, any Error>) in
            let job = TypedBlockingJob(
                lifecycle: BlockingJob.Lifecycle(BlockingJobStateMachine()), priority: .medium, trace: nil,
                body: UncheckedSendable({ (_: BlockingExecutor.JobContext) in 7 }), caller: caller)
            windows.withLock { $0.append(executor.submit(job)) }
        }
        #expect(value == 7)
        #expect(windows.withLock { $0 } == [0])
        #expect(executor.state.withLock { $0.laneSpin.window + $0.callerSpinBudget } == 0)
        // The learned windows are kept for when the cores free up.
        #expect(executor.state.withLock { $0.callerSpin.budget > 0 } == (activeProcessorCount > 1))
        #expect(try await executor.run { 8 } == 8)
        await executor.shutdown()
    }
}
