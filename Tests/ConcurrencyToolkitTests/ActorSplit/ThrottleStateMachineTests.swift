@testable import ConcurrencyToolkit
import Testing
import TestSupport

/// The mechanism without threads: every transition, driven by hand.
@Suite struct ThrottleStateMachineTests {
    typealias Machine = ThrottleStateMachine<LatestValueBuffer<Int>, String, Int>
    let interval = Duration.milliseconds(100)

    func deliveredValue(_ step: Machine.PumpStep) -> Int? {
        if case .deliver(let value) = step { return value }
        return nil
    }

    @Test func firstReportStartsOnePumpAndLaterReportsOnlyStore() {
        var machine = Machine(buffer: LatestValueBuffer(), interval: interval)
        #expect(machine.report(1).action == .startPump(id: 1))
        #expect(machine.report(2).action == .none)
        #expect(machine.report(3).leftover == 2)  // the replaced value leaves the lock with the caller
        #expect(machine.pumpStarted(id: 1, 10) == false)
        #expect(deliveredValue(machine.nextStep(pumpID: 1, now: .zero)) == 3)
    }

    @Test func deliveriesAreSpacedByTheIntervalAndThePumpEndsWhenQuiet() {
        var machine = Machine(buffer: LatestValueBuffer(), interval: interval)
        _ = machine.report(1)
        _ = machine.pumpStarted(id: 1, 10)
        #expect(deliveredValue(machine.nextStep(pumpID: 1, now: .milliseconds(5))) == 1)
        _ = machine.report(2)
        guard case .sleep(let until) = machine.nextStep(pumpID: 1, now: .milliseconds(6)) else {
            Issue.record("expected the pump to sleep until the next slot")
            return
        }
        #expect(until == .milliseconds(105))
        #expect(deliveredValue(machine.nextStep(pumpID: 1, now: .milliseconds(105))) == 2)
        guard case .sleep = machine.nextStep(pumpID: 1, now: .milliseconds(105)) else {
            Issue.record("expected a sleep after a delivery")
            return
        }
        guard case .exit = machine.nextStep(pumpID: 1, now: .milliseconds(205)) else {
            Issue.record("expected the pump to end after an empty slot")
            return
        }
        // A report after the quiet slot starts a new pump, delivered at once.
        #expect(machine.report(3).action == .startPump(id: 2))
        #expect(deliveredValue(machine.nextStep(pumpID: 2, now: .milliseconds(300))) == 3)
        #expect(machine.deliveryCount == 3)
    }

    @Test func finishWakesThePumpDeliversAtOnceThenResumesEveryWaiter() {
        var machine = Machine(buffer: LatestValueBuffer(), interval: interval)
        _ = machine.report(1)
        _ = machine.pumpStarted(id: 1, 10)
        _ = machine.nextStep(pumpID: 1, now: .zero)
        _ = machine.report(2)
        guard case .wait(let wake) = machine.finish("a") else {
            Issue.record("finish with a pending value must wait")
            return
        }
        #expect(wake == 10)
        #expect(machine.report(3).action == .refused)  // nothing new once finishing
        guard case .wait(nil) = machine.finish("b") else {
            Issue.record("a second finish waits too, without waking again")
            return
        }
        // Inside the interval, but finishing: delivered at once.
        #expect(deliveredValue(machine.nextStep(pumpID: 1, now: .milliseconds(1))) == 2)
        guard case .finish(let waiters) = machine.nextStep(pumpID: 1, now: .milliseconds(1)) else {
            Issue.record("expected the waiters to be resumed")
            return
        }
        #expect(waiters == ["a", "b"])
        #expect(machine.report(4).action == .refused)
        guard case .resume("c", stopped: false) = machine.finish("c") else {
            Issue.record("finish after finish returns at once")
            return
        }
    }

    @Test func finishBeforeThePumpIsAttachedAsksToWakeItOnAttach() {
        var machine = Machine(buffer: LatestValueBuffer(), interval: interval)
        _ = machine.report(1)
        guard case .wait(nil) = machine.finish("a") else {
            Issue.record("nothing to wake yet")
            return
        }
        #expect(machine.pumpStarted(id: 1, 10) == true)
    }

    @Test func finishWhenIdleReturnsAtOnceAndStops() {
        var machine = Machine(buffer: LatestValueBuffer(), interval: interval)
        guard case .resume("a", stopped: true) = machine.finish("a") else {
            Issue.record("an idle reporter finishes at once")
            return
        }
        #expect(machine.report(1).action == .refused)
    }

    @Test func cancelDropsThePendingValueWakesThePumpAndReleasesWaiters() {
        var machine = Machine(buffer: LatestValueBuffer(), interval: interval)
        _ = machine.report(1)
        _ = machine.pumpStarted(id: 1, 10)
        _ = machine.nextStep(pumpID: 1, now: .zero)
        _ = machine.report(2)
        _ = machine.finish("a")
        let action = machine.cancel()
        #expect(action.wake == 10)
        #expect(action.waiters == ["a"])
        #expect(action.discarded == 2)
        #expect(action.stopped)
        guard case .exit = machine.nextStep(pumpID: 1, now: .seconds(1)) else {
            Issue.record("a cancelled pump delivers nothing more")
            return
        }
        #expect(machine.report(3).action == .refused)
        #expect(machine.cancel().stopped == false)
    }

    @Test func aStalePumpIsToldToStop() {
        var machine = Machine(buffer: LatestValueBuffer(), interval: .zero)
        _ = machine.report(1)
        _ = machine.nextStep(pumpID: 1, now: .zero)  // delivers before the handle is attached
        _ = machine.nextStep(pumpID: 1, now: .zero)  // quiet: ends
        #expect(machine.report(2).action == .startPump(id: 2))
        #expect(machine.pumpStarted(id: 1, 10) == true)  // pump 1 is gone: cancelling it is harmless
        #expect(machine.pumpStarted(id: 2, 20) == false)
    }

    @Test func aFullAccumulatingBufferRefusesAndCounts() {
        var machine = ThrottleStateMachine<AccumulatingBuffer<Int>, String, Int>(
            buffer: AccumulatingBuffer(capacity: 2), interval: interval)
        #expect(machine.report(1).action == .startPump(id: 1))
        #expect(machine.report(2).action == .none)
        let refused = machine.report(3)
        #expect(refused.action == .refused)
        #expect(refused.leftover == 3)
        #expect(machine.refusedCount == 1)
        guard case .deliver(let batch) = machine.nextStep(pumpID: 1, now: .zero) else {
            Issue.record("expected a batch")
            return
        }
        #expect(batch == [1, 2])
    }

    @Test func theKeyedBufferKeepsTheNewestValuePerKey() {
        var buffer = KeyedLatestBuffer<String, Int>()
        _ = buffer.add(("a", 1))
        _ = buffer.add(("b", 1))
        let replaced = buffer.add(("a", 2))
        #expect(replaced.leftover?.value == 1)
        #expect(buffer.take() == ["a": 2, "b": 1])
        #expect(buffer.isEmpty)
    }
}
