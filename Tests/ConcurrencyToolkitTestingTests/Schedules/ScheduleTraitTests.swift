import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Testing
import TestSupport

/// The trait records one issue per failing schedule, stops after the limit,
/// survives a deadlocked test body; the replay trait fails as the schedule did.
@Suite struct ScheduleTraitTests {
    /// Kept for the life of the process, so a stuck schedule's stream never finishes.
    static let stuck = Collected<AsyncStream<Int>.Continuation>()

    @Test func eachFailingScheduleIsAnIssueUpToTheLimit() async throws {
        let recorded = Counter()
        try await withKnownIssue {
            try await ExploringSchedules(count: 100, failureLimit: 2).provideScope(for: Test.current!, testCase: nil) {
                try await withdrawTwiceAtOnce()
            }
        } matching: { issue in
            recorded.increment()
            let text = "\(issue)"
            return text.contains("overdrawn") && text.contains("replaySchedule(seed: 0x")
        }
        #expect(recorded.count == 2)
    }

    @Test func aPassingTestRunsEverySchedule() async throws {
        let runs = Counter()
        try await ExploringSchedules(count: 40).provideScope(for: Test.current!, testCase: nil) {
            runs.increment()
            try await withdrawTwiceAtOnce(correct: true)
        }
        #expect(runs.count == 40)
    }

    @Test(.exploringSchedules(50)) func theTraitAsWritten() async throws {
        try await loadTwiceAtOnce(correct: true)
    }

    /// The trait waits for a stuck schedule's task after cancelling it: a
    /// wait that ends on cancellation, as an `AsyncStream`'s does, lets the test go on.
    @Test func aDeadlockedTestBodyIsAnIssueNotAHang() async throws {
        try await withKnownIssue {
            try await ExploringSchedules(count: 2).provideScope(for: Test.current!, testCase: nil) {
                let (stream, input) = AsyncStream.makeStream(of: Int.self)
                Self.stuck.append(input)
                for await _ in stream {}
            }
        } matching: { issue in
            "\(issue)".contains("deadlock")
        }
    }

    @Test func theReplayTraitFailsAsTheScheduleDid() async throws {
        let exploration = await exploreSchedules(100) { try await withdrawTwiceAtOnce() }
        let failure = try #require(exploration.failures.first)
        let thrown = await #expect(throws: ScheduleFailure.self) {
            try await ReplayingSchedule(seed: failure.seed).provideScope(for: Test.current!, testCase: nil) {
                try await withdrawTwiceAtOnce()
            }
        }
        #expect(thrown?.seed == failure.seed)
        #expect(thrown?.error is Overdrawn)
    }
}
