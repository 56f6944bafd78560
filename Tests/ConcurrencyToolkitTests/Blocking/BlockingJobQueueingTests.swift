@testable import ConcurrencyToolkit
import Testing
import TestSupport

/// Where a job waits, and the races between its submission, its cancellation
/// and a lane, one event at a time: the cases the executor once settled by
/// taking the job's lock inside its own.
@Suite struct BlockingJobQueueingTests {
    typealias Lifecycle = BlockingJobStateMachine<String>

    @Test func aQueuedJobIsWithdrawnByItsTicket() {
        var life = Lifecycle()
        #expect(life.enqueued(ticket: 7) == false)
        #expect(life.phase == .queued(ticket: 7))
        #expect(life.cancel() == .withdraw(ticket: 7))
        // Cancelled twice: the ticket is handed out once.
        #expect(life.cancel() == .nothing)
    }

    @Test func cancelledBeforeTheTicketWasKnownTheSubmitterWithdrawsIt() {
        var life = Lifecycle()
        // The canceller comes between the FIFO's answer and `enqueued`.
        #expect(life.cancel() == .nothing)
        #expect(life.enqueued(ticket: 3) == true)
        // A lane that took the job before the withdrawal refuses to run it.
        #expect(life.start() == false)
        #expect(life.phase == .finished)
    }

    @Test func aLaneThatStartedTheJobFirstMakesTheTicketMoot() {
        var life = Lifecycle()
        #expect(life.start() == true)
        #expect(life.enqueued(ticket: 5) == false)
        #expect(life.phase == .running)
        #expect(life.register("close fd") == nil)
        #expect(life.cancel() == .interrupt(["close fd"]))
    }

    @Test func aLaneTakesAQueuedJobCancelledMeanwhileAndRefusesIt() {
        var life = Lifecycle()
        _ = life.enqueued(ticket: 1)
        // The canceller withdraws ticket 1, but a lane already took the job.
        #expect(life.cancel() == .withdraw(ticket: 1))
        #expect(life.start() == false)
        #expect(life.phase == .finished)
    }

    @Test func aQueuedJobStartsAndFinishesAndThenCancellationDoesNothing() {
        var life = Lifecycle()
        _ = life.enqueued(ticket: 2)
        #expect(life.register("too early") == nil)  // not running yet: dropped
        #expect(life.start() == true)
        life.finish()
        #expect(life.enqueued(ticket: 9) == false)
        #expect(life.cancel() == .nothing)
        #expect(life.isCancelled)
    }
}
