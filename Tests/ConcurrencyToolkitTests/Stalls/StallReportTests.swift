@testable import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Testing

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

    @Test func aScopeReceivesReportsOfAtLeastItsThreshold() async {
        let received = Lock<[ConcurrencyStall]>([])
        let short = ConcurrencyStall(kind: .mainActorBlocked, duration: .milliseconds(100))
        await ConcurrencyStallHandler.withScope(.custom { stall in received.withLock { $0.append(stall) } },
            minimumDuration: .milliseconds(200)) {
            ConcurrencyStallHandler.deliver(short, processThreshold: nil)
            ConcurrencyStallHandler.deliver(Self.blocked, processThreshold: nil)
        }
        ConcurrencyStallHandler.deliver(Self.blocked, processThreshold: nil)  // after the scope: not received
        #expect(received.withLock { $0 } == [Self.blocked])
    }

    @Test func withConcurrencyStallHandlerReceivesEveryReport() async {
        let received = Lock<[ConcurrencyStall]>([])
        await withConcurrencyStallHandler(.custom { stall in received.withLock { $0.append(stall) } }) {
            ConcurrencyStallHandler.deliver(Self.blocked, processThreshold: nil)
        }
        #expect(received.withLock { $0 } == [Self.blocked])
    }

    @Test func theDefaultHandlerWritesOneBlockPerFunctionAndSummarizesRepeats() {
        let written = Lock<[String]>([])
        let limiter = ReportRateLimitStorage(
            summaryPrefix: "CONCURRENCY STALL: ", write: { line in written.withLock { $0.append(line) } },
            schedule: { _, _ in }, flushesAtExit: false)
        let handler = ConcurrencyStallHandler.logging(to: limiter)
        for _ in 0..<3 { handler.report(Self.blocked) }
        limiter.flush()
        let lines = written.withLock { $0 }
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.hasPrefix("CONCURRENCY STALL: the cooperative pool started no job for 512 ms (ended)") == true)
        #expect(lines.last?.contains("…and 2 more from cooperativePoolBlocked ended in compressEverything()") == true, "\(lines)")
    }
}
