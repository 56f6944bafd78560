#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
@testable import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Testing
import TestSupport

/// The limiter behind the default stderr handler: the pure state machine
/// first, then the storage with a hand-driven clock and timer, then the real
/// handler in a child process.
@Suite struct ReportRateLimitStateMachineTests {
    let second: UInt64 = 1_000_000_000

    @Test func firstReportPerKeyIsWrittenAndRepeatsAreSummarizedOnce() {
        var limit = ReportRateLimitStateMachine(interval: 10 * second, summaryPrefix: "P: ")
        #expect(limit.report(key: "a.swift:7", line: "full a\n", now: 0) == [.write("full a\n")])
        #expect(limit.report(key: "a.swift:7", line: "full a\n", now: 1) == [.scheduleFlush(nanoseconds: 10 * second)])
        for time in 2..<100_000 as Range<UInt64> {
            #expect(limit.report(key: "a.swift:7", line: "full a\n", now: time).isEmpty)
        }
        #expect(limit.report(key: "b.swift:3", line: "full b\n", now: 100_000) == [.write("full b\n")])
        #expect(limit.report(key: "b.swift:3", line: "full b\n", now: 100_001).isEmpty)
        let summary = limit.flush(now: 1 + 10 * second)
        #expect(summary == "P: …and 99,999 more from a.swift:7, 1 more from b.swift:3 in the last 10 s\n")
        #expect(limit.flush(now: 11 * second) == nil, "nothing held back: no line")
    }

    @Test func summariesAreAtLeastAnIntervalApart() {
        var limit = ReportRateLimitStateMachine(interval: 10 * second, summaryPrefix: "P: ")
        _ = limit.report(key: "k", line: "l", now: 0)
        #expect(limit.report(key: "k", line: "l", now: 5 * second) == [.scheduleFlush(nanoseconds: 10 * second)])
        #expect(limit.flush(now: 15 * second) != nil)
        // The next held report starts a new interval: its summary comes 10 s later, not at once.
        #expect(limit.report(key: "k", line: "l", now: 16 * second) == [.scheduleFlush(nanoseconds: 10 * second)])
        #expect(limit.report(key: "k", line: "l", now: 17 * second).isEmpty)
    }

    @Test func countsAreGrouped() {
        #expect(ReportRateLimitStateMachine.grouped(7) == "7")
        #expect(ReportRateLimitStateMachine.grouped(999) == "999")
        #expect(ReportRateLimitStateMachine.grouped(1000) == "1,000")
        #expect(ReportRateLimitStateMachine.grouped(1_234_567) == "1,234,567")
    }

    @Test func limiterWritesFullLinesThenOneSummaryWhenTheTimerFires() {
        let written = Collected<String>()
        let scheduled = Collected<@Sendable () -> Void>()
        let clock = Lock<UInt64>(0)
        let limiter = ReportRateLimitStorage(
            summaryPrefix: "P: ", write: { line in written.append(line) },
            now: { clock.withLock { $0 } }, schedule: { _, work in scheduled.append(work) },
            flushesAtExit: false)
        for _ in 0..<1000 { limiter.report(key: "k", line: "full\n") }
        #expect(written.values == ["full\n"])
        #expect(scheduled.count == 1)
        clock.withLock { $0 = 10 * second }
        for work in scheduled.values { work() }
        #expect(written.values == ["full\n", "P: …and 999 more from k in the last 10 s\n"])
    }

    #if os(macOS) || os(Linux)  // exit tests: Apple's other platforms have none
    @Test func defaultHandlerWritesOneLineAndOneSummaryForAThousandLeaks() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                for _ in 0..<1000 {
                    _ = await withSafeContinuation(ifLeaked: 0) { (_: SafeContinuation<Int, Never>) in }
                }
                exit(0)  // as a program's end does; the exit test's own ending skips atexit hooks
            })
        let lines = String(decoding: result.standardErrorContent, as: UTF8.self)
            .split(separator: "\n").filter { $0.hasPrefix("CONTINUATION MISUSE:") }
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.contains("was dropped without being resumed") == true)
        #expect(lines.last?.contains("…and 999 more from ConcurrencyToolkitTests/ReportRateLimitStateMachineTests.swift:") == true)
        #expect(lines.last?.contains("(leaked) in the last") == true)
    }
    #endif

    @Test func customHandlersStillGetEveryReport() async {
        let (_, misuses) = await withContinuationMisuseRecorded {
            for _ in 0..<1000 {
                _ = await withSafeContinuation(ifLeaked: 0) { (_: SafeContinuation<Int, Never>) in }
            }
        }
        #expect(misuses.count == 1000)
    }
}
