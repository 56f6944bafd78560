@testable import ConcurrencyToolkit
import Testing
import TestSupport

/// The report's text and its standard-error rate limit, on made-up reports.
@Suite struct ContentionReportTests {
    func report(_ label: String = "Loop", line: Int?, ongoing: Bool = false) -> ActorContention {
        let frames = line.map { ["Spinner.spin(until:) at Sources/App/Spinner.swift:\($0)", "main at Sources/App/main.swift:3"] } ?? []
        return ActorContention(
            label: label, longestWait: .milliseconds(300), maxQueueDepth: 4, jobs: 5, duration: .seconds(12),
            holderBacktrace: frames, isOngoing: ongoing)
    }

    /// Issue 39 (item 8): a busy loop caught at lines 47, 48 and 78–80 of one
    /// function printed three full blocks.
    @Test func oneHoldingFunctionIsOneBlockWhateverTheLine() {
        let written = Collected<String>()
        let limiter = ReportRateLimitStorage(
            summaryPrefix: "ACTOR CONTENTION: ", write: { written.append($0) }, now: { 0 }, schedule: { _, _ in },
            flushesAtExit: false)
        let handler = ReportHandler<ActorContention>.writing(to: limiter, banner: "ACTOR CONTENTION")
        for line in [47, 48, 78, 79, 80] { handler.report(report(line: line)) }
        #expect(written.values.count == 1, "\(written.values)")
        #expect(written.values.first?.contains("Spinner.swift:47") == true)
        limiter.flush()
        #expect(written.values.last == "ACTOR CONTENTION: …and 4 more from actor Loop held by Spinner.spin(until:) in the last 0.0 s\n")
    }

    @Test func theKeyIsTheActorAndTheHoldersFunction() {
        #expect(report(line: 47).rateLimitKey == "actor Loop held by Spinner.spin(until:)")
        #expect(report(line: 47).rateLimitKey == report(line: 80).rateLimitKey)
        #expect(report("Other", line: 47).rateLimitKey != report(line: 47).rateLimitKey)
        #expect(report(line: nil).rateLimitKey == "actor Loop", "no holder: the actor alone")
        #expect(report(line: 47, ongoing: true).rateLimitKey == "actor Loop held by Spinner.spin(until:) (ongoing)")
    }

    @Test func anOngoingReportSaysSo() {
        let text = report(line: 47, ongoing: true).description
        #expect(text.hasPrefix("actor Loop, ongoing for 12.0 s: 5 jobs waited up to 300 ms"), "\(text)")
        #expect(report(line: 47).description.hasPrefix("actor Loop: 5 jobs waited up to 300 ms"))
    }
}
