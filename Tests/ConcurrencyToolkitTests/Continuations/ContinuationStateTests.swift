@testable import ConcurrencyToolkit
import Testing

/// The whole state machine, as a table: no threads needed.
@Suite struct ContinuationStateTests {
    typealias State = ContinuationState
    typealias Outcome = ContinuationState.Outcome

    static let table: [(State, ContinuationState.Event, Outcome)] = [
        (.pending, .resume, .finish(.resumed)),
        (.pending, .timeout, .finish(.timedOut)),
        (.pending, .cancel, .finish(.cancelled)),
        (.pending, .lastCopyDropped, .finish(.leaked)),
        (.resumed, .resume, .reportExtraResume),
        (.resumed, .timeout, .ignore),
        (.resumed, .cancel, .ignore),
        (.resumed, .lastCopyDropped, .ignore),
        (.timedOut, .resume, .dropLate),
        (.timedOut, .timeout, .ignore),
        (.timedOut, .cancel, .ignore),
        (.timedOut, .lastCopyDropped, .ignore),
        (.cancelled, .resume, .dropLate),
        (.cancelled, .timeout, .ignore),
        (.cancelled, .cancel, .ignore),
        (.cancelled, .lastCopyDropped, .ignore),
        (.leaked, .resume, .dropLate),
        (.leaked, .timeout, .ignore),
        (.leaked, .cancel, .ignore),
        (.leaked, .lastCopyDropped, .ignore),
    ]

    @Test(arguments: table.indices)
    func transition(_ row: Int) {
        let (state, event, expected) = Self.table[row]
        #expect(state.on(event) == expected, "\(state) on \(event)")
    }

    @Test func tableCoversEveryStateAndEvent() {
        let states: [State] = [.pending, .resumed, .timedOut, .cancelled, .leaked]
        let events: [ContinuationState.Event] = [.resume, .timeout, .cancel, .lastCopyDropped]
        for state in states {
            for event in events {
                #expect(Self.table.contains { $0.0 == state && $0.1 == event }, "missing \(state) on \(event)")
            }
        }
    }

    @Test func onlyPendingCanBeFinished() {
        // Exactly-once in one sentence: a finished continuation never finishes again.
        for row in Self.table {
            if case .finish = row.2 { #expect(row.0 == .pending) }
        }
    }
}

@Suite struct CancellationSlotStateTests {
    @Test func armThenCancelInterruptsTheArmedContinuation() {
        var state = CancellationSlotState.waiting
        #expect(state.arm() == .proceed)
        #expect(state == .armed)
        #expect(state.cancel() == .interruptArmed)
        #expect(state == .cancelled)
        #expect(state.cancel() == .ignore)
    }

    @Test func cancelBeforeArmCallsOnCancelAndArmFinishesWithoutBody() {
        var state = CancellationSlotState.waiting
        #expect(state.cancel() == .callOnCancel)
        #expect(state.arm() == .finishCancelled)
        #expect(state == .cancelled)
    }

    @Test func cancelAfterTheBoxWentAwayDoesNothing() {
        var state = CancellationSlotState.waiting
        _ = state.arm()
        state.detach()
        #expect(state == .detached)
        #expect(state.cancel() == .ignore)
    }

    @Test func detachAfterCancelKeepsCancelled() {
        var state = CancellationSlotState.armed
        _ = state.cancel()
        state.detach()
        #expect(state == .cancelled)
    }
}
