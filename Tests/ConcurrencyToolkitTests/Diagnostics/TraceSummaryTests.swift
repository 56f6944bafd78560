import Testing

@testable import ConcurrencyToolkit
import TestSupport

@Suite struct TraceSummaryTests {
    let summary = SampleTraces.mixed.summary()

    func line(startingWith prefix: String) -> [Substring]? {
        summary.split(separator: "\n").first { $0.drop { $0 == " " }.hasPrefix(prefix) }?
            .split(separator: " ", omittingEmptySubsequences: true)
    }

    @Test func timePerKindWithConcurrency() throws {
        // "blocking job running  2  8 ms  4 ms  4 ms  2  0.8"
        let running = try #require(line(startingWith: "blocking job running"))
        #expect(Array(running.suffix(9)) == ["2", "8", "ms", "4", "ms", "4", "ms", "2", "0.8"])
        let queued = try #require(line(startingWith: "blocking job queued"))
        #expect(Array(queued.suffix(9)) == ["2", "3", "ms", "1.5", "ms", "2", "ms", "2", "0.3"])
        #expect(line(startingWith: "progress/batch delivery") == nil)  // none recorded
    }

    @Test func longestWaitsAndPendingContinuationsWithSites() {
        #expect(summary.contains("Longest waits\n        8 ms  wait at App/Stuck.swift:40 (still waiting at the end)\n"))
        #expect(summary.contains("Pending at the end: 1\n  continuation created at App/Stuck.swift:40 in stuck(), for 8 ms\n"))
        #expect(summary.contains("Continuation misuse: 1\n"))
    }

    @Test func threadsWithBusyTime() throws {
        // main ran "outer" for 8 ms ("inner" is inside it, not added again).
        let main = try #require(line(startingWith: "main"))
        #expect(Array(main.suffix(2)) == ["8", "ms"])
        let lane = try #require(line(startingWith: "io lane 1"))
        #expect(Array(lane.suffix(2)) == ["4", "ms"])
    }

    @Test func reportsDiscardedLateEvents() {
        var trace = SampleTraces.mixed
        trace.discardedEventCount = 3
        #expect(trace.summary().contains("3 late events (after the recording ended) were discarded"))
        #expect(!summary.contains("late events"))
    }
}
