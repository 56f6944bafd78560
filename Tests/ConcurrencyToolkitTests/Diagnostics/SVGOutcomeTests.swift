import Foundation
import Testing

@testable import ConcurrencyToolkit
import TestSupport

/// What the SVG must show without hovering: how each thing ended, names
/// that are whole, and short phases large enough to read.
@Suite struct SVGOutcomeTests {
    let ms = SampleTraces.ms
    let worker = [TraceThread(id: 10, name: "worker", systemName: "worker", isMain: false)]

    /// A job that threw, one that never ran, a wait that timed out, one
    /// cancelled, one resumed; 10 ms, every bar wide enough for its label.
    var endings: Trace {
        let site = SampleTraces.waitSite
        let events = [
            TraceEvent(kind: .jobQueued(executor: "file-io"), id: 1, time: 0, threadID: 1),
            TraceEvent(kind: .jobStarted(executor: "file-io", lane: 0), id: 1, time: 0, threadID: 10),
            TraceEvent(kind: .jobFinished(failed: true), id: 1, time: 4 * ms, threadID: 10),
            TraceEvent(kind: .jobQueued(executor: "file-io"), id: 2, time: 0, threadID: 1),
            TraceEvent(kind: .jobDiscarded(reason: "cancelled while queued"), id: 2, time: 5 * ms, threadID: 1),
            TraceEvent(kind: .continuationCreated(site: site), id: 3, time: 0, threadID: 1),
            TraceEvent(kind: .continuationTimedOut, id: 3, time: 6 * ms, threadID: 30),
            TraceEvent(kind: .continuationCreated(site: site), id: 4, time: 1 * ms, threadID: 1),
            TraceEvent(kind: .continuationCancelled, id: 4, time: 7 * ms, threadID: 1),
            TraceEvent(kind: .continuationCreated(site: site), id: 5, time: 2 * ms, threadID: 1),
            TraceEvent(kind: .continuationResumed, id: 5, time: 8 * ms, threadID: 10),
        ]
        return Trace(events: events, threads: [], duration: 10 * ms, discardedEventCount: 0)
    }

    @Test func everyBadEndingIsMarkedLabelledAndInTheLegend() throws {
        let svg = endings.svgTimeline()
        let reader = try SVGReader.read(svg)
        #expect(reader.focusRange == nil)  // every bar is readable as it is
        func bars(_ outcome: String?) -> [SVGReader.Bar] { reader.bars.filter { $0.outcome == outcome } }
        #expect(bars("threw").map(\.kind) == ["job"])
        #expect(bars("discarded").map(\.kind) == ["queue"])
        #expect(bars("timed-out").map(\.kind) == ["continuation"])
        #expect(bars("cancelled").map(\.kind) == ["continuation"])
        // The queue wait of job 1 and the resumed wait ended well: no mark.
        #expect(bars(nil).map(\.kind).sorted() == ["continuation", "queue"])
        #expect(bars("threw").first?.label == "file-io job — threw")
        #expect(bars("discarded").first?.label == "queued on file-io — never ran")
        #expect(bars("timed-out").first?.label == "wait at App/Fetch.swift:12 — timed out")
        #expect(bars("cancelled").first?.label == "wait at App/Fetch.swift:12 — cancelled")
        for outcome in TraceTimeline.Outcome.allCases {
            #expect(svg.contains("<pattern id=\"outcome-\(outcome.look.key)\""))
            #expect(reader.texts.contains(outcome.look.label))
        }
    }

    /// Thirty 20 ms spans with long names, one every 100 ms of a 3 s
    /// recording: each is 7 px wide in the overview. No name is cut short:
    /// a name is whole, on or after its bar, or not written (the tooltip and
    /// the focus panel have it); in the focus panel every one is written.
    @Test func namesAreWholeOrAbsentNeverCutShort() throws {
        var events: [TraceEvent] = []
        for index in 0..<30 {
            let start = UInt64(index) * 100 * ms
            events.append(TraceEvent(kind: .spanStarted(name: "compress photo-\(index)-of-the-holiday.jpeg"), id: UInt64(index + 1), time: start, threadID: 10))
            events.append(TraceEvent(kind: .spanFinished, id: UInt64(index + 1), time: start + 20 * ms, threadID: 10))
        }
        let reader = try SVGReader.read(Trace(events: events, threads: worker, duration: 3_000 * ms, discardedEventCount: 0).svgTimeline())
        #expect(!reader.texts.contains { $0.contains("…") })
        // 60 px bars back to back: once cut to "compress…", now whole in the focus panel.
        var packed: [TraceEvent] = []
        for index in 0..<3 {
            let (id, start) = (UInt64(index + 1), UInt64(index) * 60 * ms)
            packed.append(TraceEvent(kind: .spanStarted(name: "compress photo-\(index)-of-the-holiday.jpeg"), id: id, time: start, threadID: 10))
            packed.append(TraceEvent(kind: .spanFinished, id: id, time: start + 60 * ms, threadID: 10))
        }
        let packedReader = try SVGReader.read(Trace(events: packed, threads: worker, duration: 1_000 * ms, discardedEventCount: 0).svgTimeline())
        #expect(!packedReader.texts.contains { $0.contains("…") })
        let packedLabels = packedReader.bars.filter { $0.inFocus }.compactMap { $0.label }
        #expect(!packedLabels.isEmpty)
        #expect(packedLabels.allSatisfy { $0.hasPrefix("compress photo-") && $0.hasSuffix(".jpeg") })
        for bar in reader.bars {
            let name = try #require(bar.tooltip.components(separatedBy: " — ").first)
            #expect(bar.label == nil || bar.label == name, "\(bar.label ?? "") cut from \(name)")
        }
        let focus = try #require(reader.focusRange)
        let inFocus = reader.bars.filter(\.inFocus)
        #expect(inFocus.count >= 1)
        // Bars wholly inside the focus panel are wide enough there for their name.
        let whole = inFocus.filter { bar in
            let start = UInt64(Int(bar.tooltip.split(separator: "-")[1]) ?? 0) * 100 * ms
            return start >= focus.start && start + 20 * ms <= focus.end
        }
        #expect(!whole.isEmpty)
        for bar in whole { #expect(bar.label?.hasPrefix("compress photo-") == true && bar.label?.hasSuffix(".jpeg") == true) }
    }

    /// A 100 ms phase (five 20 ms jobs) in a 3 s recording is a sliver in the
    /// overview; the focus panel shows that stretch, magnified.
    @Test func shortPhaseGetsAFocusPanel() throws {
        var events = [
            TraceEvent(kind: .spanStarted(name: "scan"), id: 100, time: 0, threadID: 1),
            TraceEvent(kind: .spanFinished, id: 100, time: 1_000 * ms, threadID: 1),
        ]
        for index in 0..<5 {
            let start = 1_200 * ms + UInt64(index) * 20 * ms
            events.append(TraceEvent(kind: .jobStarted(executor: "io", lane: 0), id: UInt64(index + 1), time: start, threadID: 10))
            events.append(TraceEvent(kind: .jobFinished(failed: false), id: UInt64(index + 1), time: start + 20 * ms, threadID: 10))
        }
        let trace = Trace(events: events, threads: worker, duration: 3_000 * ms, discardedEventCount: 0)
        let reader = try SVGReader.read(trace.svgTimeline())
        let focus = try #require(reader.focusRange)
        #expect(focus.start <= 1_200 * ms && focus.end >= 1_300 * ms, "\(focus)")
        #expect(focus.end - focus.start <= 1_000 * ms)
        let jobs = reader.bars.filter { $0.inFocus && $0.kind == "job" }
        #expect(jobs.count == 5)
        #expect(jobs.allSatisfy { $0.label == "io job" })

        // Everything readable already: no focus panel.
        #expect(try SVGReader.read(SampleTraces.mixed.svgTimeline()).focusRange == nil)
    }
}
