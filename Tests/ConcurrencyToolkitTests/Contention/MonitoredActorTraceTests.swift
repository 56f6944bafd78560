import Foundation
import Testing

@testable import ConcurrencyToolkit
import TestSupport

/// A monitored actor in the trace (issue 28, item 4): a counter track per
/// actor in the Chrome JSON, a row per actor in the SVG, and the summary's
/// table, whose numbers are the executor's own `statistics`.
@Suite(.serialized) struct MonitoredActorTraceTests {
    /// One recording of a scripted sequence: a job holds the actor until
    /// three callers queue behind it, one by one; then all run. The actor is
    /// created inside the recording, so the trace has every one of its jobs.
    struct Scripted {
        let label: String
        let trace: Trace
        let statistics: MonitoredActorExecutor.Statistics
    }

    static func scripted(_ name: String) async throws -> Scripted {
        let label = uniqueLabel(name)
        let gate = Counter()
        let recorder = TraceRecorder()
        let actor = await recorder.record { () -> MonitoredCounter in
            // All at `.high`: on Linux each priority has its own pool threads.
            // The holder blocks one of them until the callers queue, and each
            // caller needs a free one to start; at the test's own priority the
            // serialized end-to-end tests hold another of the two, and then
            // no caller (nor any other test of the process) could start.
            await Task(priority: .high) { () -> MonitoredCounter in
                let actor = MonitoredCounter(label: label)
                let holder = Task { await actor.hold(until: gate) }
                #expect(await eventually { actor.executor.statistics.jobs == 1 })
                var callers: [Task<Void, Never>] = []
                for depth in 1...3 {
                    callers.append(Task { await actor.increment() })
                    #expect(await eventually { actor.executor.statistics.queueDepth == depth })
                }
                gate.increment()
                await holder.value
                for caller in callers { await caller.value }
                // The last job's end is recorded just after its caller resumes.
                #expect(await eventually { finished(label, in: recorder.trace) == 4 })
                return actor
            }.value
        }
        return Scripted(label: label, trace: recorder.trace, statistics: actor.executor.statistics)
    }

    static func finished(_ label: String, in trace: Trace) -> Int {
        trace.events.count { if case .actorJobFinished(label, _) = $0.kind { true } else { false } }
    }

    @Test func chromeJSONHasACounterTrackPerActorWithTheDepthsItWentThrough() async throws {
        let run = try await Self.scripted("TraceDepth")
        let data = Data(run.trace.chromeTraceJSON().utf8)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(root["traceEvents"] as? [[String: Any]])
        let counters = events.filter { $0["ph"] as? String == "C" && $0["name"] as? String == "actor \(run.label)" }
        let samples = counters.compactMap { event -> [Int]? in
            guard let args = event["args"] as? [String: Int], let depth = args["queue depth"], let running = args["running"]
            else { return nil }
            return [depth, running]
        }
        // [queue depth, running] after each change: the holder queues and
        // starts; three callers queue behind it; each job ends and the next starts.
        #expect(samples == [
            [1, 0], [0, 1], [1, 1], [2, 1], [3, 1],
            [3, 0], [2, 1], [2, 0], [1, 1], [1, 0], [0, 1], [0, 0],
        ])
        let times = counters.compactMap { $0["ts"] as? Double }
        #expect(times == times.sorted())
        #expect(counters.allSatisfy { $0["pid"] as? Int == 1 })
    }

    @Test func summaryTableReadsAsTheExecutorsStatistics() async throws {
        let run = try await Self.scripted("TraceSummary")
        let summary = run.trace.summary()
        let line = try #require(summary.split(separator: "\n").first { $0.hasPrefix("  \(run.label) ") })
        let stats = run.statistics
        func text(_ duration: Duration) -> String { TraceFormatting.duration(nanoseconds(duration)) }
        let share = Double(nanoseconds(stats.busyTime)) / Double(run.trace.duration) * 100
        let expected = [
            "\(stats.jobs)", text(stats.medianWait), text(stats.p99Wait), text(stats.longestWait),
            text(stats.busyTime), TraceFormatting.decimal(share, places: 1), "\(stats.maxQueueDepth)",
        ]
        #expect(stats.jobs == 4)
        #expect(stats.maxQueueDepth == 3)
        #expect(summary.contains("\nMonitored actors "))
        // "  label  4  1.2 ms  …": the label, then one column per figure.
        let columns = line.dropFirst(2 + run.label.count).split(separator: " ", omittingEmptySubsequences: true)
        var cells: [String] = []
        var index = columns.startIndex
        while index < columns.endIndex {
            // Durations are a number and a unit: "1.23 ms".
            let next = columns.index(after: index)
            if next < columns.endIndex, ["ns", "µs", "ms", "s"].contains(String(columns[next])) {
                cells.append("\(columns[index]) \(columns[next])")
                index = columns.index(after: next)
            } else {
                cells.append(String(columns[index]))
                index = next
            }
        }
        #expect(cells == expected)
    }

    @Test func svgDrawsARowPerActorWithItsJobsAndQueue() async throws {
        let (labels, trace) = try await Self.twoActors()
        let svg = trace.svgTimeline()
        let timeline = TraceTimeline(trace)
        for label in labels {
            #expect(timeline.rows.contains { $0.role == .actor(label: label) && $0.name == "actor \(label)" })
            #expect(svg.contains("data-row=\"actor \(label)\""))
            #expect(svg.contains("<g class=\"queue-depth\" data-actor=\"\(label)\" data-max-depth=\"1\">"))
            let jobs = timeline.intervals.filter { $0.role == .actor(label: label) && $0.category == .actorJob }
            #expect(jobs.count == 2)
            #expect(jobs.allSatisfy { $0.isOnRow && $0.finished })
        }
        #expect(svg.contains(SVGActorQueue.legendLabel))
    }

    /// Two actors, each called twice in turn, from a task of its own each
    /// time (one job per call: a task that goes on after the call may go on
    /// in the same job).
    static func twoActors() async throws -> ([String], Trace) {
        let labels = [uniqueLabel("TraceRowA"), uniqueLabel("TraceRowB")]
        let recorder = TraceRecorder()
        await recorder.record {
            for label in labels {
                let actor = MonitoredCounter(label: label)
                await Task { await actor.increment() }.value
                await Task { await actor.increment() }.value
                #expect(await eventually { finished(label, in: recorder.trace) == 2 })
            }
        }
        return (labels, recorder.trace)
    }

    /// An app's long-lived actor, made before any recording: every recording
    /// running while it works shows its jobs (two at once here, one nested
    /// in the other as two tasks' recordings would overlap).
    @Test func anActorCreatedOutsideAnyRecordingIsInEveryRecordingRunning() async {
        let label = uniqueLabel("Global")
        let actor = MonitoredCounter(label: label)
        let (outer, inner) = (TraceRecorder(), TraceRecorder())
        await outer.record {
            await inner.record {
                await Task { await actor.increment() }.value
                #expect(await eventually { Self.finished(label, in: outer.trace) == 1 && Self.finished(label, in: inner.trace) == 1 })
            }
        }
        for trace in [outer.trace, inner.trace] {
            let track = TraceTimeline(trace).actors.first { $0.label == label }
            #expect(track?.jobs == 1)
            #expect(trace.summary().contains("\n  \(label) "))
            #expect(trace.chromeTraceJSON().contains("\"actor \(label)\""))
        }
    }

    /// A recorder running two `record` calls at once (one nested in the
    /// other) is registered twice; it gets each of such an actor's events once.
    @Test func aRecorderInTwoOfItsOwnRecordingsGetsEachJobOnce() async {
        let label = uniqueLabel("Twice")
        let actor = MonitoredCounter(label: label)
        let recorder = TraceRecorder()
        await recorder.record {
            await recorder.record {
                await Task { await actor.increment() }.value
                #expect(await eventually { Self.finished(label, in: recorder.trace) >= 1 })
            }
        }
        #expect(Self.finished(label, in: recorder.trace) == 1)
        #expect(TraceTimeline(recorder.trace).actors.first { $0.label == label }?.jobs == 1)
    }

    /// An event sent to every recording may reach one that has just ended:
    /// dropped, and not counted as that recording's late event; its own late
    /// events still are.
    @Test func aProcessWideEventAfterTheEndIsNotCountedAsLate() async {
        let recorder = TraceRecorder()
        await recorder.record { marker("inside") }
        recorder.append(.marker(name: "process-wide"), id: 0, countedIfLate: false)
        #expect(recorder.trace.discardedEventCount == 0)
        recorder.append(.marker(name: "its own"), id: 0)
        #expect(recorder.trace.discardedEventCount == 1)
        #expect(recorder.trace.withoutActors.events.map(\.kind) == [.marker(name: "inside")])
    }

    /// An actor made inside a recording belongs to it: a recording that runs
    /// beside it (here, the one around it, of the same task) does not get its jobs.
    @Test func anActorCreatedInARecordingIsInThatOneOnly() async {
        let label = uniqueLabel("Own")
        let (outer, inner) = (TraceRecorder(), TraceRecorder())
        await outer.record {
            await inner.record {
                let actor = MonitoredCounter(label: label)
                await Task { await actor.increment() }.value
                #expect(await eventually { Self.finished(label, in: inner.trace) == 1 })
            }
        }
        #expect(TraceTimeline(inner.trace).actors.map(\.label).contains(label))
        #expect(!outer.trace.events.contains { $0.kind.actorChange?.actor == label })
    }
}

private func nanoseconds(_ duration: Duration) -> UInt64 {
    let (seconds, attoseconds) = duration.components
    return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
}
