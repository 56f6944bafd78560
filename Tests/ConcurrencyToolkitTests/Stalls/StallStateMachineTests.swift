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
}
