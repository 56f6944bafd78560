@testable import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Testing
import TestSupport

/// The report's text and its routing.
@Suite struct StallReportTests {
    static let blocked = ConcurrencyStall(
        kind: .cooperativePoolBlocked, duration: .milliseconds(512),
        threads: [.init(id: 42, backtrace: ["compressEverything() at Sources/App/Zip.swift:10", "main() at Sources/App/main.swift:3"])])

    @Test func descriptionNamesTheKindTheDurationAndTheFrames() {
        let text = Self.blocked.description
        #expect(text.hasPrefix("the cooperative pool started no job for 512 ms (ended)"), "\(text)")
        #expect(text.contains("blocked by thread 42:\n    compressEverything() at Sources/App/Zip.swift:10"), "\(text)")
        var ongoing = ConcurrencyStall(kind: .mainActorBlocked, duration: .milliseconds(250), isOngoing: true)
        #expect(ongoing.description == "the main actor ran no job for 250 ms so far; no backtrace (see Documentation/StallDetection.md).")
        ongoing.isOngoing = false
        #expect(ongoing.backtrace.isEmpty)
        #expect(Self.blocked.backtrace.first == "compressEverything() at Sources/App/Zip.swift:10")
    }

    @Test func kindsHaveTheirNames() {
        #expect("\(ConcurrencyStall.Kind.mainActorBlocked)" == "mainActorBlocked")
        #expect("\(ConcurrencyStall.Kind.cooperativePoolBlocked)" == "cooperativePoolBlocked")
    }

    /// A stall only this test delivers. Scopes are process-wide: a scope
    /// also receives what tests running beside it deliver (the other scope
    /// test here, a real stall of the detector's), so each test counts only
    /// the reports that carry its own frame.
    static func own(_ test: String, _ kind: ConcurrencyStall.Kind = .cooperativePoolBlocked, milliseconds: Int = 512)
        -> ConcurrencyStall
    {
        ConcurrencyStall(kind: kind, duration: .milliseconds(milliseconds), threads: [.init(id: 42, backtrace: ["\(test)() at Tests/StallReportTests.swift:1"])])
    }

    static func received(_ all: [ConcurrencyStall], from test: String) -> [ConcurrencyStall] {
        all.filter { $0.backtrace.first?.hasPrefix("\(test)()") == true }
    }

    @Test func aScopeReceivesReportsOfAtLeastItsThreshold() async {
        let received = Collected<ConcurrencyStall>()
        let short = Self.own("aScope", .mainActorBlocked, milliseconds: 100)
        let long = Self.own("aScope")
        await ConcurrencyStallHandler.withScope(.custom { stall in received.append(stall) },
            minimumDuration: .milliseconds(200)) {
            ConcurrencyStallHandler.deliver(short, processThreshold: nil)
            ConcurrencyStallHandler.deliver(long, processThreshold: nil)
        }
        ConcurrencyStallHandler.deliver(long, processThreshold: nil)  // after the scope: not received
        #expect(Self.received(received.values, from: "aScope") == [long])
    }

    @Test func withConcurrencyStallHandlerReceivesEveryReport() async {
        let received = Collected<ConcurrencyStall>()
        let mine = Self.own("withHandler")
        await withConcurrencyStallHandler(.custom { stall in received.append(stall) }) {
            ConcurrencyStallHandler.deliver(mine, processThreshold: nil)
        }
        #expect(Self.received(received.values, from: "withHandler") == [mine])
    }

    @Test func theDefaultHandlerWritesOneBlockPerFunctionAndSummarizesRepeats() {
        let written = Collected<String>()
        let limiter = ReportRateLimitStorage(
            summaryPrefix: "CONCURRENCY STALL: ", write: { line in written.append(line) },
            schedule: { _, _ in }, flushesAtExit: false)
        let handler = ConcurrencyStallHandler.logging(to: limiter)
        for _ in 0..<3 { handler.report(Self.blocked) }
        limiter.flush()
        let lines = written.values
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.hasPrefix("CONCURRENCY STALL: the cooperative pool started no job for 512 ms (ended)") == true)
        #expect(lines.last?.contains("…and 2 more from cooperativePoolBlocked ended in compressEverything()") == true, "\(lines)")
    }
}
