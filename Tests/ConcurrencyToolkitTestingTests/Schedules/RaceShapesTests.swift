import ConcurrencyToolkit
@testable import ConcurrencyToolkitTesting
import Testing
import TestSupport

/// The bar: each bug shape found within 300 schedules, its seed
/// replaying the same failure 20 of 20 times, its correct version passing 500.
@Suite struct RaceShapesTests {
    enum Shape: String, CaseIterable, Sendable, CustomStringConvertible {
        case overdraw, doubleLoad, doubleResume

        var description: String { rawValue }

        func body(correct: Bool) -> @Sendable () async throws -> Void {
            switch self {
            case .overdraw: { try await withdrawTwiceAtOnce(correct: correct) }
            case .doubleLoad: { try await loadTwiceAtOnce(correct: correct) }
            case .doubleResume: { try await completeRacingCancel(correct: correct) }
            }
        }

        /// What a failure of this shape must be.
        func isItsFailure(_ failure: ScheduleFailure) -> Bool {
            switch self {
            case .overdraw: failure.error is Overdrawn
            case .doubleLoad: failure.error is LoadedTwice
            case .doubleResume: failure.misuses.contains { $0.kind == .resumedMoreThanOnce }
            }
        }
    }

    @Test(arguments: Shape.allCases)
    func foundWithin300Schedules(_ shape: Shape) async throws {
        let exploration = await exploreSchedules(300, shape.body(correct: false))
        #expect(exploration.schedulesRun == 300)
        let failure = try #require(exploration.failures.first, "\(shape) not found: \(exploration)")
        #expect(exploration.failures.allSatisfy { shape.isItsFailure($0) }, "\(exploration)")
        #expect(!failure.isDeadlock)
        #expect("\(failure)".contains("replaySchedule(seed: 0x"))
        // Misuse carries the seed of the schedule it happened in.
        if shape == .doubleResume { #expect("\(failure)".contains("seed \(seedLiteral(failure.seed))")) }
    }

    @Test(arguments: Shape.allCases)
    func aFailingSeedReplaysTheSameFailure20Times(_ shape: Shape) async throws {
        let exploration = await exploreSchedules(300, shape.body(correct: false))
        let failure = try #require(exploration.failures.first, "\(shape) not found: \(exploration)")
        for run in 1...20 {
            let again = try #require(
                await ScheduleRun.run(seed: failure.seed, strategy: failure.strategy, body: shape.body(correct: false)),
                "replay \(run) of \(failure) passed")
            #expect(again.steps == failure.steps, "replay \(run) of \(failure): \(again)")
            #expect(shape.isItsFailure(again), "replay \(run): \(again)")
            #expect(again.misuses.map(\.kind) == failure.misuses.map(\.kind), "replay \(run): \(again)")
            if shape != .doubleResume { #expect("\(again.error)" == "\(failure.error)") }
        }
        // The public face rethrows what the schedule threw.
        await #expect(throws: (any Error).self) { try await replaySchedule(seed: failure.seed, shape.body(correct: false)) }
    }

    @Test(arguments: Shape.allCases)
    func theCorrectVersionPasses500Schedules(_ shape: Shape) async {
        let exploration = await exploreSchedules(500, shape.body(correct: true))
        #expect(exploration.schedulesRun == 500)
        #expect(exploration.failures.isEmpty, "\(exploration)")
    }

    @Test func anExplorationSeedRunsTheSameSchedulesAgain() async {
        let first = await exploreSchedules(100, seed: 41, Shape.overdraw.body(correct: false))
        let second = await exploreSchedules(100, seed: 41, Shape.overdraw.body(correct: false))
        #expect(first.seed == 41)
        #expect(first.failures.map(\.seed) == second.failures.map(\.seed))
        #expect(!first.failures.isEmpty)
    }
}
