import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(1))) struct ManualClockTests {
    @Test func sleepersWakeOnlyWhenTheirDeadlineIsReachedEarliestFirst() async throws {
        let clock = ManualClock()
        let woken = Collected<Int>()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for milliseconds in [30, 10, 20] {
                group.addTask {
                    try await clock.sleep(until: .zero.advanced(by: .milliseconds(milliseconds)))
                    woken.append(milliseconds)
                }
            }
            await clock.waitForSleepers(count: 3)
            clock.advance(by: .milliseconds(9))
            #expect(clock.sleeperCount == 3)
            clock.advance(by: .milliseconds(1))  // t = 10
            #expect(clock.sleeperCount == 2)
            try await group.next()
            #expect(woken.values == [10])
            clock.advance(to: .zero.advanced(by: .milliseconds(25)))
            try await group.next()
            #expect(woken.values == [10, 20])
            clock.advance(to: .zero.advanced(by: .milliseconds(30)))
            try await group.next()
            #expect(woken.values == [10, 20, 30])
        }
        #expect(clock.now == .zero.advanced(by: .milliseconds(30)))
    }

    @Test func aDeadlineInThePastReturnsAtOnceAndTimeNeverGoesBack() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(5))
        clock.advance(to: .zero.advanced(by: .seconds(1)))
        #expect(clock.now == .zero.advanced(by: .seconds(5)))
        try await clock.sleep(until: .zero.advanced(by: .seconds(5)))
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellingASleeperRemovesItAndThrows() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(until: .zero.advanced(by: .seconds(1))) }
        await clock.waitForSleepers(count: 1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
        #expect(clock.now == .zero)
    }

    @Test func sleepingInACancelledTaskThrowsWithoutRegistering() async {
        let clock = ManualClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(until: .zero.advanced(by: .seconds(1)))
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func worksAsAnyClockForTaskSleep() async throws {
        let clock = ManualClock()
        let done = Task { try await Task.sleep(for: .seconds(3), clock: clock) }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(3))
        try await done.value
    }
}
