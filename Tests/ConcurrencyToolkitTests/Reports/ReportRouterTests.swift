@testable import ConcurrencyToolkit
import Testing
import TestSupport

/// A kind registered here, in the tests, and nowhere else: the floor gives
/// it routing, scopes, the rate-limited default and the trace with no code
/// of its own beyond the value and its registration.
struct SlowLock: ConcurrencyReport, Hashable {
    var site: String
    var waitedMilliseconds: Int
    var description: String { "the lock at \(site) waited \(waitedMilliseconds) ms" }

    static let reporting = ReportRouter<SlowLock>(
        handlerName: "SlowLockHandler", banner: "SLOW LOCK", scopedAlternative: "withSlowLockHandler",
        scoping: .whileActive, tracing: .events { .marker(name: "slow lock at \($0.site)") })
    var rateLimitKey: String { site }
}

/// A kind routed by where its source was created, like a continuation's misuse.
struct LostTicket: ConcurrencyReport, Hashable {
    var number: Int
    var description: String { "ticket \(number) was lost" }

    static let reporting = ReportRouter<LostTicket>(
        handlerName: "LostTicketHandler", banner: "LOST TICKET", scopedAlternative: "withLostTicketHandler",
        scoping: .creatingTask)
    var rateLimitKey: String { "ticket" }
}

/// Serialized: a while-active scope receives every report delivered meanwhile, by any test.
@Suite(.serialized) struct ReportRouterTests {
    static let slow = SlowLock(site: "Cache.swift:12", waitedMilliseconds: 300)

    @Test func aWhileActiveScopeGetsWhatIsDeliveredMeanwhileAndWhatItAccepts() async {
        let received = Collected<SlowLock>()
        let short = SlowLock(site: "Cache.swift:12", waitedMilliseconds: 5)
        await SlowLock.reporting.withScope(
            .custom { report in received.append(report) },
            accepting: { $0.waitedMilliseconds >= 100 }
        ) {
            #expect(SlowLock.reporting.hasActiveScopes)
            SlowLock.reporting.deliver(short, toProcessWide: true, intoEveryRecording: false)
            SlowLock.reporting.deliver(Self.slow, toProcessWide: true, intoEveryRecording: false)
        }
        SlowLock.reporting.deliver(Self.slow, toProcessWide: false, intoEveryRecording: false)  // after: not received
        #expect(received.values == [Self.slow])
    }

    @Test func nestedWhileActiveScopesEachGetTheReport() async {
        let outer = Lock(0)
        let inner = Lock(0)
        await SlowLock.reporting.withScope(.custom { _ in outer.withLock { $0 += 1 } }) {
            await SlowLock.reporting.withScope(.custom { _ in inner.withLock { $0 += 1 } }) {
                SlowLock.reporting.deliver(Self.slow, toProcessWide: true, intoEveryRecording: false)
            }
        }
        #expect(outer.withLock { $0 } == 1)
        #expect(inner.withLock { $0 } == 1)
    }

    @Test func aCreatingTaskScopeFollowsTheSourceAfterItEnded() async {
        let received = Collected<LostTicket>()
        #expect(LostTicket.reporting.handlerForNewSource() == nil)  // no scope: the process-wide handler, later
        let captured = await LostTicket.reporting.withScope(
            .custom { report in received.append(report) }
        ) {
            await Task { LostTicket.reporting.handlerForNewSource() }.value  // a child inherits the scope
        }
        #expect(captured != nil)
        LostTicket.reporting.deliver(LostTicket(number: 7), to: captured)  // detected after the scope ended
        #expect(received.values == [LostTicket(number: 7)])
    }

    @Test func theDefaultWritesTheFirstReportPerKeyAndSumsUpRepeats() {
        let written = Collected<String>()
        let limiter = ReportRateLimitStorage(
            summaryPrefix: "SLOW LOCK: ", write: { line in written.append(line) },
            schedule: { _, _ in }, flushesAtExit: false)
        let handler = ReportHandler<SlowLock>.writing(to: limiter, banner: SlowLock.reporting.banner)
        for _ in 0..<4 { handler.report(Self.slow) }
        handler.report(SlowLock(site: "Index.swift:3", waitedMilliseconds: 200))
        limiter.flush()
        let lines = written.values
        #expect(lines.count == 3, "\(lines)")
        #expect(lines.first == "SLOW LOCK: the lock at Cache.swift:12 waited 300 ms\n")
        #expect(lines.dropFirst().first == "SLOW LOCK: the lock at Index.swift:3 waited 200 ms\n")
        #expect(lines.last?.hasPrefix("SLOW LOCK: …and 3 more from Cache.swift:12 in the last") == true, "\(lines)")
        // The router's own default is this handler, on standard error.
        #expect(SlowLock.reporting.standardErrorLimiter !== limiter)
    }

    @Test func aScopeInARecordingPutsTheReportInTheTrace() async {
        let (_, trace) = await withTraceRecording {
            await SlowLock.reporting.withScope(.custom { _ in }) {
                SlowLock.reporting.deliver(Self.slow, toProcessWide: false, intoEveryRecording: false)
            }
        }
        let markers = trace.events.filter { $0.kind == .marker(name: "slow lock at Cache.swift:12") }
        #expect(markers.count == 1, "\(trace.events.map(\.kind))")
    }

    @Test func withoutScopesOnlyAProcessWideReportReachesTheProcessWideHandler() async {
        // A kind of its own: bootstrapping is once per process.
        struct Once: ConcurrencyReport {
            var description: String { "once" }
            static let reporting = ReportRouter<Once>(
                handlerName: "OnceHandler", banner: "ONCE", scopedAlternative: "withOnceHandler", scoping: .whileActive)
            var rateLimitKey: String { "once" }
        }
        let count = Lock(0)
        Once.reporting.bootstrap(.custom { _ in count.withLock { $0 += 1 } }, fileID: #fileID, line: #line)
        Once.reporting.deliver(Once(), toProcessWide: false, intoEveryRecording: false)
        Once.reporting.deliver(Once(), toProcessWide: true, intoEveryRecording: false)
        #expect(count.withLock { $0 } == 1)
    }

    @Test func scopesChangedHearsEachScopeBeginAndEndAroundItsTaskLocal() async {
        // ContinuationMisuse's router mirrors its scope count this way into
        // an atomic that creating a continuation reads without touching the router.
        struct Counted: ConcurrencyReport {
            static let heard = Lock<[Int]>([])
            var description: String { "counted" }
            static let reporting = ReportRouter<Counted>(
                handlerName: "CountedHandler", banner: "COUNTED", scopedAlternative: "withCountedHandler",
                scoping: .creatingTask, scopesChanged: { delta in heard.withLock { $0.append(delta) } })
            var rateLimitKey: String { "counted" }
        }
        await Counted.reporting.withScope(.custom { _ in }) {
            #expect(Counted.heard.withLock { $0 } == [1])
            #expect(Counted.reporting.handlerForNewSource() != nil)  // the task-local is bound after the count
            await Counted.reporting.withScope(.custom { _ in }) {
                #expect(Counted.heard.withLock { $0 } == [1, 1])
            }
        }
        #expect(Counted.heard.withLock { $0 } == [1, 1, -1, -1])
        #expect(!Counted.reporting.hasActiveScopes)
    }

    @Test func everyContinuationMisuseScopeSendsCreationDownTheScopedPath() async {
        // The testing helpers open scopes on the router itself, not through
        // withContinuationMisuseHandler: creation must see those too.
        await ContinuationMisuse.reporting.withScope(.custom { _ in }) {
            #expect(ContinuationOptions.creationFlags() & ContinuationOptions.scoped != 0)
        }
        await withContinuationMisuseHandler(.custom { _ in }) {
            #expect(ContinuationOptions.creationFlags() & ContinuationOptions.scoped != 0)
        }
    }
}
