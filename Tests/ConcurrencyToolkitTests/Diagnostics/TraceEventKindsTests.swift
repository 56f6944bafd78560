@testable import ConcurrencyToolkit
import Testing
import TestSupport

/// The one description of every row and mark: each is complete and told
/// apart from the others, so a kind added there shows in every export.
@Suite struct TraceEventKindsTests {
    @Test func everyRowHasItsOwnLabelKeyAndColour() {
        let looks = TraceTimeline.Category.allCases.map(\.look)
        #expect(Set(looks.map(\.label)).count == looks.count)
        #expect(Set(looks.map(\.key)).count == looks.count)
        #expect(Set(looks.map(\.color)).count == looks.count)
        #expect(looks.allSatisfy { !($0.isWaiting && $0.runsOnOneThread) })  // a wait never occupies a thread
    }

    @Test func everyMarkIsInTheLegendAndTheJSON() {
        let trace = SampleTraces.mixed
        let svg = trace.svgTimeline()
        let json = trace.chromeTraceJSON()
        for kind in TraceTimeline.Instant.Kind.allCases {
            #expect(svg.contains(">\(kind.look.label)</text>"))
            #expect(json.contains("\"cat\":\"\(kind.look.key)\""))
        }
        #expect(trace.summary().contains("Continuation misuse: 1"))
        #expect(trace.summary().contains("Stalls: 1\n  the main actor ran no job for 300 ms (ended)"))
        #expect(trace.summary().contains("Actor contention: 1\n  actor Cache: 6 jobs waited up to 250 ms"))
    }

    @Test func aJobStartingEndsItsQueueWaitAndBeginsItsRun() {
        guard case .endAndBegin(.jobRunning, let name, _) = TraceEvent.Kind.jobStarted(executor: "io", lane: 2).timelineEffect
        else {
            Issue.record("a started job must end the queued bar and begin the running one")
            return
        }
        #expect(name == "io job")
    }
}
