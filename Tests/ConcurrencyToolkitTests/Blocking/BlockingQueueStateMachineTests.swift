@testable import ConcurrencyToolkit
import Testing

/// The executor's queue without threads: every transition, one event at a time.
@Suite struct BlockingQueueStateTests {
    typealias State = BlockingQueueState<String, String>

    @Test func submissionsTakeIdleLanesThenQueueInFIFOOrder() {
        var state = State(width: 2)
        #expect(state.submit("a", isCancelled: false) == .start(lane: 0))
        #expect(state.submit("b", isCancelled: false) == .start(lane: 1))
        #expect(state.submit("c", isCancelled: false) == .enqueued(ticket: 0))
        #expect(state.submit("d", isCancelled: false) == .enqueued(ticket: 1))
        #expect(state.metrics.queued == 2)
        #expect(state.metrics.running == 2)
        #expect(state.metrics.peakRunning == 2)

        guard case .run("c") = state.laneFinished(1, .completed(wait: .zero)) else {
            Issue.record("lane 1 should take c, the oldest queued job")
            return
        }
        guard case .run("d") = state.laneFinished(0, .completed(wait: .zero)) else {
            Issue.record("lane 0 should take d")
            return
        }
        guard case .idle(let waiters) = state.laneFinished(0, .failed(wait: .zero)), waiters.isEmpty else {
            Issue.record("lane 0 should go idle with nothing to resume")
            return
        }
        #expect(state.metrics.running == 1)
        // The lane that went idle last is reused first.
        #expect(state.submit("e", isCancelled: false) == .start(lane: 0))
    }

    @Test func cancellingAQueuedJobRemovesItAndItIsNeverTaken() {
        var state = State(width: 1)
        _ = state.submit("running", isCancelled: false)
        _ = state.submit("x", isCancelled: false)  // ticket 0
        _ = state.submit("y", isCancelled: false)  // ticket 1
        #expect(state.cancel(ticket: 0) == "x")
        #expect(state.cancel(ticket: 0) == nil)  // twice: nothing left to remove
        guard case .run("y") = state.laneFinished(0, .completed(wait: .zero)) else {
            Issue.record("the cancelled job must be skipped")
            return
        }
        #expect(state.cancel(ticket: 1) == nil)  // already taken by a lane
        let m = state.metrics
        #expect(m.cancelled == 1)
        #expect(m.submitted == 3)
    }

    @Test func cancellingEverythingQueuedLeavesNoStoredTicket() {
        var state = State(width: 1)
        _ = state.submit("running", isCancelled: false)
        for i in 0..<1_000 { _ = state.submit("job \(i)", isCancelled: false) }
        for ticket in UInt64(0)..<1_000 { #expect(state.cancel(ticket: ticket) != nil) }
        #expect(state.storedTicketCount == 0)
        guard case .idle = state.laneFinished(0, .completed(wait: .zero)) else {
            Issue.record("nothing may run after every queued job was cancelled")
            return
        }
        let m = state.metrics
        #expect(m.submitted == m.queued + m.running + m.completed + m.failed + m.cancelled)
        #expect(m.cancelled == 1_000)
    }

    @Test func aSubmissionWhoseCallerIsCancelledIsRefusedAndCounted() {
        var state = State(width: 1)
        #expect(state.submit("late", isCancelled: true) == .rejectCancelled)
        #expect(state.metrics.cancelled == 1)
        #expect(state.metrics.running == 0)
        #expect(state.submit("next", isCancelled: false) == .start(lane: 0))
    }

    @Test func shutdownDrainsTheQueueInOrderAndWaitsForBusyLanes() {
        var state = State(width: 1)
        _ = state.submit("running", isCancelled: false)
        _ = state.submit("q1", isCancelled: false)
        _ = state.submit("q2", isCancelled: false)
        let action = state.shutdown(waiter: "w1")
        #expect(action.drained == ["q1", "q2"])
        #expect(!action.resumeNow)
        #expect(state.submit("after", isCancelled: false) == .rejectShutDown)
        let again = state.shutdown(waiter: "w2")
        #expect(again.drained.isEmpty)
        #expect(!again.resumeNow)
        guard case .idle(let waiters) = state.laneFinished(0, .completed(wait: .zero)) else {
            Issue.record("the last lane must go idle")
            return
        }
        #expect(waiters == ["w1", "w2"])
        #expect(state.metrics.rejected == 3)
    }

    @Test func shutdownOfAnIdleExecutorResumesAtOnce() {
        var state = State(width: 3)
        let action = state.shutdown(waiter: "w")
        #expect(action.resumeNow)
        #expect(action.drained.isEmpty)
    }

    @Test func queueWaitIsSummedAndItsMaximumKept() {
        var state = State(width: 1)
        _ = state.submit("a", isCancelled: false)
        _ = state.submit("b", isCancelled: false)
        _ = state.laneFinished(0, .completed(wait: .milliseconds(3)))
        _ = state.laneFinished(0, .cancelled(wait: .milliseconds(7)))
        let m = state.metrics
        #expect(m.queueWaitTotal == .milliseconds(10))
        #expect(m.queueWaitMax == .milliseconds(7))
        #expect(m.completed == 1)
        #expect(m.cancelled == 1)
    }
}
