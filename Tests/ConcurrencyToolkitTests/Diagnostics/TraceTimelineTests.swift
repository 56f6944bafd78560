import Testing

@testable import ConcurrencyToolkit
import TestSupport

@Suite struct TraceTimelineTests {
    let ms = SampleTraces.ms

    @Test func pairsBeginAndEndByID() throws {
        let timeline = TraceTimeline(SampleTraces.mixed)
        #expect(timeline.intervals.count == 8)  // 2 queued, 2 running, 2 waits, 2 spans
        let queued = timeline.intervals.filter { $0.category == .jobQueued }
        #expect(queued.map(\.id).sorted() == [1, 2])
        #expect(queued.map(\.duration).sorted() == [1 * ms, 2 * ms])
        let running = try #require(timeline.intervals.first { $0.id == 2 && $0.category == .jobRunning })
        #expect(running.start == 2 * ms && running.end == 6 * ms && running.startThread == 11)
        #expect(running.details.contains { $0 == (key: "outcome", value: "threw") })
        let wait = try #require(SampleTraces.interval(timeline, id: 3))
        #expect(wait.category == .continuationWait && wait.finished && wait.endThread == 10)
        #expect(timeline.instants.map(\.kind) == [.marker, .misuse, .stall, .contention])
    }

    @Test func unfinishedWorkLastsUntilTheEnd() throws {
        let timeline = TraceTimeline(SampleTraces.mixed)
        let stuck = try #require(SampleTraces.interval(timeline, id: 4))
        #expect(!stuck.finished)
        #expect(stuck.end == 10 * ms)
        #expect(stuck.site == SampleTraces.stuckSite)
        #expect(timeline.intervals.filter { !$0.finished }.map(\.id) == [4])
    }

    @Test func workOnOneThreadGoesOnItsLaneNestedByDepth() throws {
        let timeline = TraceTimeline(SampleTraces.mixed)
        #expect(SampleTraces.interval(timeline, id: 5)?.placement == .onRow(depth: 0))
        #expect(SampleTraces.interval(timeline, id: 6)?.placement == .onRow(depth: 1))
        #expect(SampleTraces.interval(timeline, id: 1)?.placement == .onRow(depth: 0))
        // Waiting is never drawn as running on a thread.
        for interval in timeline.intervals where interval.category.isWaiting {
            #expect(interval.placement != .onRow(depth: 0))
        }
    }

    @Test func overlappingWithoutNestingOrCrossingThreadsIsDetached() {
        let events = [
            TraceEvent(kind: .spanStarted(name: "a"), id: 1, time: 0, threadID: 1),
            TraceEvent(kind: .spanStarted(name: "b"), id: 2, time: 3, threadID: 1),
            TraceEvent(kind: .spanFinished, id: 1, time: 5, threadID: 1),
            TraceEvent(kind: .spanFinished, id: 2, time: 8, threadID: 1),
            TraceEvent(kind: .jobStarted(executor: "e", lane: 0), id: 3, time: 0, threadID: 1),
            TraceEvent(kind: .jobFinished(failed: false), id: 3, time: 1, threadID: 2),
        ]
        let trace = Trace(events: events, threads: [], duration: 10, discardedEventCount: 0)
        let timeline = TraceTimeline(trace)
        let placement = Dictionary(uniqueKeysWithValues: timeline.intervals.map { ($0.id, $0.placement) })
        #expect(placement[3] == .detached(row: 0))  // moved from thread 1 to 2
        // "a" and job 3 both start at 0 on thread 1; job 3 ends on another thread.
        #expect(placement[1] == .onRow(depth: 0))
        #expect(placement[2] == .detached(row: 0))
    }

    @Test func detachedIntervalsArePackedIntoRows() {
        // Three overlapping waits then one after them: rows 0, 1, 2, then 0 again.
        let starts: [UInt64] = [0, 1, 2, 10]
        var events: [TraceEvent] = []
        for (offset, start) in starts.enumerated() {
            let id = UInt64(offset + 1)
            events.append(TraceEvent(kind: .continuationCreated(site: SampleTraces.waitSite), id: id, time: start, threadID: 1))
            events.append(TraceEvent(kind: .continuationResumed, id: id, time: start + 5, threadID: 1))
        }
        let timeline = TraceTimeline(Trace(events: events.sorted { $0.time < $1.time }, threads: [], duration: 20, discardedEventCount: 0))
        #expect(timeline.intervals.map(\.placement) == [.detached(row: 0), .detached(row: 1), .detached(row: 2), .detached(row: 0)])
    }

    @Test func concurrencyPeakAndAverage() {
        let timeline = TraceTimeline(SampleTraces.mixed)
        let running = timeline.concurrency(of: .jobRunning)
        #expect(running.peak == 2)
        #expect(abs(running.average - 0.8) < 1e-9)  // (4 ms + 4 ms) / 10 ms
        let queued = timeline.concurrency(of: .jobQueued)
        #expect(queued.peak == 2)
        #expect(abs(queued.average - 0.3) < 1e-9)
    }

    @Test func backToBackWorkIsNotCountedAsOverlap() {
        let events = [
            TraceEvent(kind: .jobStarted(executor: "e", lane: 0), id: 1, time: 0, threadID: 1),
            TraceEvent(kind: .jobFinished(failed: false), id: 1, time: 5, threadID: 1),
            TraceEvent(kind: .jobStarted(executor: "e", lane: 0), id: 2, time: 5, threadID: 1),
            TraceEvent(kind: .jobFinished(failed: false), id: 2, time: 10, threadID: 1),
        ]
        let timeline = TraceTimeline(Trace(events: events, threads: [], duration: 10, discardedEventCount: 0))
        #expect(timeline.concurrency(of: .jobRunning).peak == 1)
        #expect(timeline.intervals.map(\.placement) == [.onRow(depth: 0), .onRow(depth: 0)])
    }

    @Test func threadNames() {
        func name(_ system: String, main: Bool = false) -> String {
            ThreadNaming.displayName(id: 7, systemName: system, isMain: main, processName: "squeezer")
        }
        #expect(name("squeezer", main: true) == "main")
        #expect(name("io lane 3") == "io lane 3")
        #expect(name("-qos.overcommit") == "dispatch thread · 7")
        #expect(name("oot.default-qos") == "cooperative pool · 7")
        #expect(name("squeezer") == "thread · 7")
        #expect(name("") == "thread · 7")
    }

    @Test func formatting() {
        #expect(TraceFormatting.duration(850) == "850 ns")
        #expect(TraceFormatting.duration(12_500) == "12.5 µs")
        #expect(TraceFormatting.duration(1_234_567) == "1.23 ms")
        #expect(TraceFormatting.duration(2_000_000_000) == "2 s")
        #expect(TraceFormatting.duration(1_524_000_000, inUnitOf: 2_000_000) == "1524 ms")
        #expect(TraceFormatting.decimal(-0.25, places: 1) == "-0.3")
        #expect(TraceFormatting.decimal(1e-9, places: 1) == "0")
        #expect(TraceFormatting.decimal(1e12, places: 1) == "1000000000000")
        #expect(TraceFormatting.microseconds(1_234_567) == "1234.567")
        #expect(TraceFormatting.microseconds(5) == "0.005")
        #expect(TraceFormatting.xmlEscaped("a<b & \"c\" 'd'>\u{1}") == "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;\u{FFFD}")
        #expect(TraceFormatting.jsonString("q\"\\\n\u{1}é") == #""q\"\\\n\u0001é""#)
    }

    @Test func threadsSharingANameGetTheirIDs() {
        let threads = [
            TraceThread(id: 1, name: "main", systemName: "squeezer", isMain: true),
            TraceThread(id: 10, name: "worker", systemName: "worker", isMain: false),
            TraceThread(id: 11, name: "reader", systemName: "reader", isMain: false),
            TraceThread(id: 12, name: "worker", systemName: "worker", isMain: false),
        ]
        #expect(ThreadNaming.disambiguated(threads).map(\.name) == ["main", "worker · 10", "reader", "worker · 12"])
    }

    @Test func tickStepIsRoundAndGivesAtMostTenTicks() {
        #expect(SVGTimeline.tickStep(10 * ms) == 1 * ms)
        #expect(SVGTimeline.tickStep(25 * ms) == 5 * ms)
        #expect(SVGTimeline.tickStep(1) == 1)
        for duration: UInt64 in [1, 7, 99, 1_000, 123_456, 9_999_999, 3_000_000_000] {
            let step = SVGTimeline.tickStep(duration)
            #expect(duration / step <= 10, "\(duration) → \(step)")
            #expect(step <= duration)
        }
    }
}

extension TraceTimelineTests {
    /// A child task or an async span that suspended and came back on the same
    /// thread did not keep that thread busy: never drawn on its lane.
    @Test func taskTimeIsNeverDrawnOnAThread() {
        let events = [
            TraceEvent(kind: .childStarted(index: 0), id: 1, time: 0, threadID: 1),
            TraceEvent(kind: .asyncSpanStarted(name: "download"), id: 2, time: 1, threadID: 1),
            TraceEvent(kind: .spanFinished, id: 2, time: 5, threadID: 1),
            TraceEvent(kind: .childFinished, id: 1, time: 6, threadID: 1),
            TraceEvent(kind: .spanStarted(name: "parse"), id: 3, time: 7, threadID: 1),
            TraceEvent(kind: .spanFinished, id: 3, time: 8, threadID: 1),
        ]
        let timeline = TraceTimeline(Trace(events: events, threads: [], duration: 10, discardedEventCount: 0))
        #expect(timeline.intervals.map(\.category) == [.child, .asyncSpan, .span])
        #expect(timeline.intervals.map(\.placement) == [.detached(row: 0), .detached(row: 0), .onRow(depth: 0)])
    }
}
