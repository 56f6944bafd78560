import Foundation
import Testing

@testable import ConcurrencyToolkit
import TestSupport

/// Dispatch moves its worker threads between the main queue, executor lanes
/// and other queues. Every export must draw and count each event under what
/// its thread was doing *then*, not under the thread's first role.
/// The cases that record real `BlockingExecutor` lanes are in
/// Blocking/BlockingExecutorThreadRoleTests.swift.
@Suite(.timeLimit(.minutes(2))) struct ThreadRoleTests {
    /// The user's recording, rebuilt: Dispatch thread 8196 first drains the
    /// main queue (a main-actor span), then runs `file-io` lane 14's jobs,
    /// then drains main again. Main's row and the summary's main line hold
    /// the main-actor work only; the jobs are lane 14's. No row is named after the
    /// thread's first role.
    @Test func aDispatchThreadThatRanMainThenALaneIsCountedUnderEach() throws {
        let ms = SampleTraces.ms
        let threads = [
            TraceThread(id: 8196, name: "dispatch thread · 8196", systemName: "-qos.overcommit", isMain: false),
            TraceThread(id: 20, name: "cooperative pool · 20", systemName: "oot.default-qos", isMain: false),
        ]
        let events = [
            TraceEvent(kind: .spanStarted(name: "refresh"), id: 1, time: 0, threadID: 8196, onMain: true),
            TraceEvent(kind: .spanFinished, id: 1, time: 2 * ms, threadID: 8196, onMain: true),
            TraceEvent(kind: .jobQueued(executor: "file-io"), id: 2, time: 2 * ms, threadID: 20),
            TraceEvent(kind: .jobStarted(executor: "file-io", lane: 14), id: 2, time: 3 * ms, threadID: 8196),
            TraceEvent(kind: .spanStarted(name: "read"), id: 3, time: 4 * ms, threadID: 8196),
            TraceEvent(kind: .spanFinished, id: 3, time: 8 * ms, threadID: 8196),
            TraceEvent(kind: .jobFinished(failed: false), id: 2, time: 9 * ms, threadID: 8196),
            TraceEvent(kind: .continuationResumed, id: 9, time: 9 * ms, threadID: 8196),
            TraceEvent(kind: .spanStarted(name: "refresh"), id: 4, time: 10 * ms, threadID: 8196, onMain: true),
            TraceEvent(kind: .marker(name: "shown"), id: 0, time: 10 * ms, threadID: 8196, onMain: true),
            TraceEvent(kind: .spanFinished, id: 4, time: 11 * ms, threadID: 8196, onMain: true),
        ]
        let trace = Trace(events: events, threads: threads, duration: 12 * ms, discardedEventCount: 0)
        let timeline = TraceTimeline(trace)
        #expect(timeline.rows.map(\.name) == ["main", "file-io lane 14"])
        #expect(timeline.rows.map(\.threads) == [[8196], [8196]])
        #expect(timeline.intervals.filter { $0.role == .main }.map(\.name) == ["refresh", "refresh"])
        #expect(Set(timeline.intervals.filter { $0.role == .lane(executor: "file-io", index: 14) }.map(\.name))
            == ["file-io job", "read"])

        let summary = trace.summary()
        let busy = summary.split(separator: "\n").drop { !$0.hasPrefix("Rows") }.dropFirst().prefix { $0.hasPrefix("  ") }
        #expect(busy.map { $0.split(separator: " ").joined(separator: " ") } == ["main 3 ms", "file-io lane 14 6 ms"])
        let reader = try SVGReader.read(trace.svgTimeline())
        #expect(reader.rows.map(\.name) == ["main", "file-io lane 14"])
        #expect(reader.rows[0].bars.allSatisfy { $0.hasPrefix("refresh") })
        #expect(reader.rows[1].bars.contains { $0.hasPrefix("file-io job") })
    }

    /// A reporter's pump awaits a main-actor handler from a pool thread:
    /// the delivery is drawn with the waits and task time, never as work of
    /// the pool thread that began and ended it; the handler's own span is in
    /// the `main` row.
    @Test func mainActorDeliveriesAreNotPoolThreadWork() async throws {
        let (_, trace) = await withTraceRecording {
            let progress = ThrottledProgress<Int>(interval: .zero) { @MainActor _ in span("show progress") {} }
            for value in 1...5 { progress.report(value) }
            await progress.finish()
        }
        let timeline = TraceTimeline(trace)
        let deliveries = timeline.intervals.filter { $0.category == .delivery }
        #expect(!deliveries.isEmpty)
        #expect(deliveries.allSatisfy { !$0.isOnRow })
        let shown = timeline.intervals.filter { $0.name == "show progress" }
        #expect(shown.count == deliveries.count)
        #expect(shown.allSatisfy { $0.role == .main && $0.isOnRow })
    }

    /// "12.34 ms" (after any padding) in milliseconds.
    static func milliseconds(_ text: Substring) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count >= 2, let value = Double(parts[0]) else { return nil }
        switch parts[1] {
        case "s": return value * 1_000
        case "ms": return value
        case "µs": return value / 1_000
        case "ns": return value / 1_000_000
        default: return nil
        }
    }
}
