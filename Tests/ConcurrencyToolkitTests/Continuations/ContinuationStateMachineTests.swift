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
        // A box made before its continuation, for `onCancel:`.
        (.unarmed, .arm, .move(.pending)),
        (.unarmed, .cancel, .move(.cancelledBeforeArm)),
        (.unarmed, .resume, .ignore),
        (.unarmed, .timeout, .ignore),
        (.unarmed, .lastCopyDropped, .ignore),
        (.cancelledBeforeArm, .arm, .finish(.cancelled)),
        (.cancelledBeforeArm, .resume, .ignore),
        (.cancelledBeforeArm, .timeout, .ignore),
        (.cancelledBeforeArm, .cancel, .ignore),
        (.cancelledBeforeArm, .lastCopyDropped, .ignore),
        // Arming happens once.
        (.pending, .arm, .ignore),
        (.resumed, .arm, .ignore),
        (.timedOut, .arm, .ignore),
        (.cancelled, .arm, .ignore),
        (.leaked, .arm, .ignore),
    ]

    @Test(arguments: table.indices)
    func transition(_ row: Int) {
        let (state, event, expected) = Self.table[row]
        #expect(state.on(event) == expected, "\(state) on \(event)")
    }

    @Test func tableCoversEveryStateAndEvent() {
        let states = State.allCases
        let events: [ContinuationState.Event] = [.resume, .timeout, .cancel, .lastCopyDropped, .arm]
        for state in states {
            for event in events {
                #expect(Self.table.contains { $0.0 == state && $0.1 == event }, "missing \(state) on \(event)")
            }
        }
    }

    @Test func everyStateSurvivesTheTripThroughTheAtomicByte() {
        for state in State.allCases {
            #expect(State(stored: state.rawValue) == state)
        }
        // `init(stored:)` checks against the last case; a new case goes before it.
        #expect(State.allCases.map(\.rawValue).max() == State.cancelledBeforeArm.rawValue)
    }

    @Test func onlyAWaitingContinuationCanBeFinished() {
        // Exactly-once in one sentence: a finished continuation never finishes
        // again. Pending is the only state a waiter can be resumed from, except
        // the cancellation that arrived before arming, which arming finishes.
        for row in Self.table {
            if case .finish = row.2 {
                #expect(row.0 == .pending || (row.0 == .cancelledBeforeArm && row.1 == .arm))
            }
        }
    }

    @Test func aCancellationBeforeArmingIsFinishedByArmingAndCalledOnCancelOnce() {
        // The handler sees `.move` (call onCancel, resume nobody); arming sees
        // `.finish` (resume with CancellationError, skip the body); a second
        // cancellation sees nothing to do.
        var state = State.unarmed
        guard case .move(let marked) = state.on(.cancel) else { Issue.record("cancel did not move"); return }
        state = marked
        #expect(state.on(.cancel) == .ignore)
        #expect(state.on(.arm) == .finish(.cancelled))
    }
}
