@testable import ConcurrencyToolkit
import Testing
import TestSupport

/// The watchdog's decisions, without threads or clocks (nanoseconds as plain numbers).
@Suite struct StallStateMachineTests {
    @Test func aLateProbeIsReportedOngoingOnceThenEndedWithItsWholeWait() {
        var tracker = StallStateMachine()
        #expect(tracker.observe(pendingSince: 0, answered: nil, now: 100, threshold: 250) == .none)
        #expect(tracker.observe(pendingSince: 0, answered: nil, now: 260, threshold: 250)
            == .reportOngoing(serial: 1, waited: 260))
        #expect(tracker.observe(pendingSince: 0, answered: nil, now: 360, threshold: 250) == .none)
        #expect(tracker.observe(pendingSince: nil, answered: (0, 410), now: 420, threshold: 250)
            == .reportEnded(serial: 1, waited: 410))
        // The same answer seen again is not a second report.
        #expect(tracker.observe(pendingSince: nil, answered: (0, 410), now: 520, threshold: 250) == .none)
    }

    @Test func aStallBetweenTwoLooksIsReportedEndedOnly() {
        var tracker = StallStateMachine()
        #expect(tracker.observe(pendingSince: 0, answered: nil, now: 100, threshold: 250) == .none)
        #expect(tracker.observe(pendingSince: nil, answered: (0, 300), now: 350, threshold: 250)
            == .reportEnded(serial: 1, waited: 300))
    }

    @Test func promptProbesAreNoStall() {
        var tracker = StallStateMachine()
        for look in 0..<100 as Range<UInt64> {
            let sent = look * 100
            #expect(tracker.observe(pendingSince: nil, answered: (sent, sent + 5), now: sent + 50, threshold: 250) == .none)
        }
    }

    @Test func twoStallsGetTwoSerials() {
        var tracker = StallStateMachine()
        #expect(tracker.observe(pendingSince: 0, answered: nil, now: 300, threshold: 250) == .reportOngoing(serial: 1, waited: 300))
        #expect(tracker.observe(pendingSince: nil, answered: (0, 400), now: 450, threshold: 250) == .reportEnded(serial: 1, waited: 400))
        #expect(tracker.observe(pendingSince: 500, answered: (0, 400), now: 800, threshold: 250) == .reportOngoing(serial: 2, waited: 300))
        #expect(tracker.observe(pendingSince: nil, answered: (500, 900), now: 950, threshold: 250) == .reportEnded(serial: 2, waited: 400))
    }

    /// The pool's probes: one probe let through mid-block (a thread Dispatch
    /// started) does not split the block into two stalls.
    @Test func aPoolStallGoesOnAfterABlipAndEndsAtThePromptAnswer() {
        var tracker = StallStateMachine(endsOnPromptAnswer: true)
        #expect(tracker.observe(pendingSince: 0, answered: nil, now: 300, threshold: 250) == .reportOngoing(serial: 1, waited: 300))
        // Answered late at 320: not ended yet.
        #expect(tracker.observe(pendingSince: nil, answered: (0, 320), now: 400, threshold: 250) == .none)
        #expect(tracker.ending?.serial == 1)
        // The next probe (sent at 400) is late too: the same stall, captured again.
        #expect(tracker.observe(pendingSince: 400, answered: (0, 320), now: 700, threshold: 250) == .reportOngoing(serial: 1, waited: 700))
        #expect(tracker.ongoing == .init(serial: 1, since: 0, probe: 400))
        // Answered late at 900, then a probe answered promptly: one stall, 0 to 900.
        #expect(tracker.observe(pendingSince: nil, answered: (400, 900), now: 950, threshold: 250) == .none)
        #expect(tracker.observe(pendingSince: nil, answered: (950, 960), now: 1050, threshold: 250)
            == .reportEnded(serial: 1, waited: 900))
        #expect(tracker.ongoing == nil && tracker.ending == nil)
    }

    @Test func aPoolStallBetweenLooksWaitsForThePromptAnswerToo() {
        var tracker = StallStateMachine(endsOnPromptAnswer: true)
        #expect(tracker.observe(pendingSince: nil, answered: (0, 300), now: 350, threshold: 250) == .none)
        // Another late answer before a prompt one: the same stall, longer.
        #expect(tracker.observe(pendingSince: nil, answered: (350, 700), now: 750, threshold: 250) == .none)
        #expect(tracker.observe(pendingSince: nil, answered: (750, 760), now: 850, threshold: 250)
            == .reportEnded(serial: 1, waited: 700))
        // A later stall is a new one.
        #expect(tracker.observe(pendingSince: 900, answered: (750, 760), now: 1200, threshold: 250)
            == .reportOngoing(serial: 2, waited: 300))
    }

    @Test func finishReportsAPoolStallWaitingForItsConfirmation() {
        var tracker = StallStateMachine(endsOnPromptAnswer: true)
        #expect(tracker.observe(pendingSince: 0, answered: nil, now: 300, threshold: 250) == .reportOngoing(serial: 1, waited: 300))
        #expect(tracker.observe(pendingSince: nil, answered: (0, 500), now: 550, threshold: 250) == .none)
        #expect(tracker.finish() == .reportEnded(serial: 1, waited: 500))
        #expect(tracker.finish() == .none)
        // Without a stall waiting, nothing.
        var quiet = StallStateMachine(endsOnPromptAnswer: true)
        #expect(quiet.finish() == .none)
    }
}

/// Issue 39: a stall just above the threshold is seen while it lasts. The
/// watchdog looks when a probe on its way turns late, not only every interval.
@Suite struct StallWatcherNextLookTests {
    @Test func theNextLookComesWhenAProbeTurnsLate() {
        // Sent at 0, looked at 100 and 200: late at 250, not at the look at 300.
        #expect(StallWatcher.nextLook(interval: 100, threshold: 250, now: 200, pendingSince: 0) == 50)
        // A probe just sent: the interval.
        #expect(StallWatcher.nextLook(interval: 100, threshold: 250, now: 200, pendingSince: 200) == 100)
        #expect(StallWatcher.nextLook(interval: 100, threshold: 250, now: 200, pendingSince: nil) == 100)
        // Already late (its stall is tracked): the interval.
        #expect(StallWatcher.nextLook(interval: 100, threshold: 250, now: 300, pendingSince: 0) == 100)
    }
}
