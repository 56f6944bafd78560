import Foundation
import Testing

@testable import ConcurrencyToolkit
import TestSupport

/// Dispatch moves its worker threads between the main queue, executor lanes
/// and other queues. Every export must draw and count each event under what
/// its thread was doing *then*, not under the thread's first role.
@Suite(.timeLimit(.minutes(2))) struct ThreadRoleTests {
    /// A real recording. Dispatch picks the OS thread of every lane hop from
    /// its idle workers, so alternating two executors soon runs both on one
    /// thread; the test keeps going until it has (or gives up). An extra
    /// alpha job every other round breaks the parity that could otherwise
    /// keep a round-robin of an even number of idle workers apart.
    /// Only public API and the exported SVG and summary are read.
    @Test func aThreadThatServedTwoLanesIsDrawnInEachLanesRow() async throws {
        let alpha = BlockingExecutor(width: 1, label: "alpha")
        let beta = BlockingExecutor(width: 1, label: "beta")
        let (result, trace) = try await withTraceRecording { () async throws -> (shared: UInt64?, jobs: [String: Int]) in
            var seen: [String: Set<UInt64>] = [:]
            var jobs: [String: Int] = [:]
            for round in 1...300 {
                let schedule = round % 2 == 0 ? [("alpha", alpha), ("beta", beta)] : [("alpha", alpha), ("beta", beta), ("alpha", alpha)]
                for (name, executor) in schedule {
                    jobs[name, default: 0] += 1
                    let thread = try await executor.run { () -> UInt64 in
                        letTheWaiterSuspendUnderThreadSanitizer()
                        span("\(name) work") { blockThread(milliseconds: 2) }
                        return CurrentThread.id
                    }
                    seen[name, default: []].insert(thread)
                    // Let the lane's thread go back to Dispatch's idle workers first.
                    try await Task.sleep(for: .milliseconds(1))
                }
                if let both = seen["alpha", default: []].intersection(seen["beta", default: []]).first {
                    return (both, jobs)
                }
            }
            return (nil, jobs)
        }
        await alpha.shutdown()
        await beta.shutdown()
        let shared = try #require(result.shared, "Dispatch never ran both executors' lanes on one thread")

        let reader = try SVGReader.read(trace.svgTimeline())
        let alphaRow = try #require(reader.rows.first { $0.name == "alpha lane 0" })
        let betaRow = try #require(reader.rows.first { $0.name == "beta lane 0" })
        #expect(alphaRow.threads.contains("\(shared)") && betaRow.threads.contains("\(shared)"))
        // Every job and span is in its own lane's row, whichever thread ran it.
        for (row, own, other) in [(alphaRow, "alpha", "beta"), (betaRow, "beta", "alpha")] {
            let jobs = result.jobs[own, default: 0]
            #expect(row.bars.filter { $0.contains("executor: \(own)") }.count == jobs)
            #expect(row.bars.filter { $0.hasPrefix("\(own) work") }.count == jobs)
            #expect(!row.bars.contains { $0.contains("executor: \(other)") || $0.hasPrefix("\(other) work") })
        }
        // The summary counts each lane's own jobs: at least 2 ms each.
        for (name, executor) in [("alpha lane 0", "alpha"), ("beta lane 0", "beta")] {
            let line = try #require(trace.summary().split(separator: "\n").first { $0.hasPrefix("  \(name) ") })
            let busy = try #require(Self.milliseconds(line.dropFirst(2 + name.count)))
            let jobs = Double(result.jobs[executor, default: 0])
            #expect(busy >= 2 * jobs, "\(line)")
            #expect(busy < 4 * jobs + 1_000, "\(line)")
        }
    }

    /// A span on the main actor is in the `main` row, one in a job in its
    /// lane's row, and each event says whether it was emitted on main.
    @Test func mainActorWorkIsInTheMainRowAndJobsInTheLaneRow() async throws {
        let executor = BlockingExecutor(width: 1, label: "roles")
        let (_, trace) = try await withTraceRecording {
            await MainActor.run { span("on main") { marker("main mark") } }
            try await executor.run {
                letTheWaiterSuspendUnderThreadSanitizer()
                span("on lane") {}
            }
        }
        await executor.shutdown()
        let onMain = trace.events { $0 == .spanStarted(name: "on main") }
        let onLane = trace.events { $0 == .spanStarted(name: "on lane") }
        #expect(onMain.map(\.onMain) == [true])
        #expect(onLane.map(\.onMain) == [false])
        let timeline = TraceTimeline(trace)
        let rows = Dictionary(timeline.rows.map { ($0.name, $0.role) }, uniquingKeysWith: { first, _ in first })
        #expect(rows["main"] == .main)
        #expect(rows["roles lane 0"] == .lane(executor: "roles", index: 0))
        #expect(timeline.intervals.first { $0.name == "on main" }?.role == .main)
        #expect(timeline.intervals.first { $0.name == "on lane" }?.role == .lane(executor: "roles", index: 0))
        #expect(timeline.instants.first { $0.name == "main mark" }?.role == .main)
    }

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
