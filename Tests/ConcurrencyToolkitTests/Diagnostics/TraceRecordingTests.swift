import Dispatch
import Testing

@testable import ConcurrencyToolkit
import TestSupport

/// A stand-in for a toolkit job: captures the recording in the caller's task,
/// runs `work` on a serial Dispatch queue (its own thread), and reports the
/// job's life from there — the same calls `BlockingExecutor` makes.
private func runOnLane<T: Sendable>(
    _ queue: DispatchQueue, label: String, lane: Int, _ work: @escaping @Sendable () -> T
) async -> (value: T, thread: UInt64) {
    let trace = Instrumentation.begin(.jobQueued(executor: label))
    return await withCheckedContinuation { continuation in
        queue.async {
            trace?.emit(.jobStarted(executor: label, lane: lane))
            let value = work()
            trace?.emit(.jobFinished(failed: false))
            continuation.resume(returning: (value, CurrentThread.id))
        }
    }
}

private func markerNames(_ trace: Trace) -> [String] {
    trace.events.compactMap { if case .marker(let name) = $0.kind { name } else { nil } }
}

@Suite struct TraceRecordingTests {
    @Test func jobsOnOtherThreadsAreAttributedToTheRecording() async {
        let lane = DispatchQueue(label: "test-lane")
        let (laneThread, trace) = await withTraceRecording {
            marker("submitting")
            return await runOnLane(lane, label: "test", lane: 0) { 42 }.thread
        }
        let started = trace.events.filter { if case .jobStarted = $0.kind { true } else { false } }
        #expect(started.count == 1)
        #expect(started.first?.threadID == laneThread)
        // queued, started and finished share one id, so the exports pair them.
        let jobEvents = trace.events.filter { $0.id == started.first?.id }
        #expect(jobEvents.count == 3)
        #expect(trace.threads.contains { $0.id == laneThread })
        // The job is drawn in its lane's row, served by that thread; the
        // thread itself keeps libdispatch's name for it.
        let lanes = TraceTimeline(trace).rows.filter { $0.role == .lane(executor: "test", index: 0) }
        #expect(lanes.map(\.name) == ["test lane 0"])
        #expect(lanes.first?.threads == [laneThread])
    }

    @Test func childTasksInheritTheRecording() async {
        let (_, trace) = await withTraceRecording {
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<4 {
                    group.addTask { marker("child \(index)") }
                }
            }
            await Task { marker("unstructured") }.value
        }
        #expect(Set(markerNames(trace)) == ["child 0", "child 1", "child 2", "child 3", "unstructured"])
    }

    @Test func detachedTasksAreNotRecorded() async {
        let (_, trace) = await withTraceRecording {
            await Task.detached { marker("detached") }.value
            marker("inside")
        }
        #expect(markerNames(trace) == ["inside"])
    }

    @Test func nothingIsRecordedAfterTheOperationEnds() async {
        let recorder = TraceRecorder()
        let lane = DispatchQueue(label: "late-lane")
        let gate = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        await recorder.record {
            let trace = Instrumentation.begin(.jobQueued(executor: "late"))
            lane.async {
                gate.wait()  // starts only after the recording ended
                trace?.emit(.jobStarted(executor: "late", lane: 0))
                trace?.emit(.jobFinished(failed: false))
                done.signal()
            }
        }
        let before = recorder.trace.withoutActors
        gate.signal()
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                done.wait()
                continuation.resume()
            }
        }
        let after = recorder.trace.withoutActors
        #expect(before.events.count == 1)
        #expect(after.events == before.events)
        #expect(after.discardedEventCount == 2)
        #expect(after.duration == before.duration)
        // The job that outlived the operation shows as still queued at the end.
        #expect(after.summary().contains("Pending at the end: 1"))
    }

    @Test func parallelRecordingsDoNotMix() async {
        let lane = DispatchQueue(label: "shared-lane")
        let traces = await withTaskGroup(of: (String, Trace).self) { group in
            for name in ["a", "b"] {
                group.addTask {
                    let (_, trace) = await withTraceRecording {
                        for step in 0..<20 {
                            marker("\(name)\(step)")
                            _ = await runOnLane(lane, label: name, lane: 0) { step }
                            await Task.yield()
                        }
                    }
                    return (name, trace)
                }
            }
            var traces: [String: Trace] = [:]
            for await (name, trace) in group { traces[name] = trace }
            return traces
        }
        for name in ["a", "b"] {
            let trace = try! #require(traces[name])
            #expect(markerNames(trace) == (0..<20).map { "\(name)\($0)" })
            let executors = trace.events.compactMap { if case .jobQueued(let executor) = $0.kind { executor } else { nil } }
            #expect(executors == Array(repeating: name, count: 20))
            #expect(trace.withoutActors.events.count == 20 * 4)
        }
    }

    @Test func spansPairOnTheirThreadAndNest() async throws {
        let (value, recorded) = try await withTraceRecording {
            try span("outer") {
                try span("inner") { () throws -> Int in 7 }
            }
        }
        #expect(value == 7)
        let trace = recorded.withoutActors
        let kinds = trace.events.map(\.kind)
        #expect(kinds == [.spanStarted(name: "outer"), .spanStarted(name: "inner"), .spanFinished, .spanFinished])
        #expect(trace.events[0].id == trace.events[3].id)
        #expect(trace.events[1].id == trace.events[2].id)
        #expect(trace.events[0].id != trace.events[1].id)
        #expect(Set(trace.events.map(\.threadID)).count == 1)
    }

    @Test func asyncSpanEndsWhenBodyThrows() async {
        struct Failure: Error {}
        let recorder = TraceRecorder()
        await #expect(throws: Failure.self) {
            try await recorder.record {
                try await span("download") {
                    await Task.yield()
                    throw Failure()
                }
            }
        }
        #expect(recorder.trace.withoutActors.events.map(\.kind) == [.asyncSpanStarted(name: "download"), .spanFinished])
    }

    @Test func nestedRecordingGetsItsOwnEventsOnly() async {
        let (inner, outer) = await withTraceRecording {
            marker("outer before")
            let (_, inner) = await withTraceRecording { marker("inner") }
            marker("outer after")
            return inner
        }
        #expect(markerNames(inner) == ["inner"])
        #expect(markerNames(outer) == ["outer before", "outer after"])
    }

    @Test func timesAreMonotonicAndWithinTheRecording() async throws {
        let (_, trace) = try await withTraceRecording {
            marker("one")
            try await Task.sleep(for: .milliseconds(20))
            marker("two")
        }
        let times = trace.withoutActors.events.map(\.time)
        #expect(times.count == 2)
        #expect(times[1] >= times[0] + 15_000_000)
        #expect(times[1] <= trace.duration)
    }

    /// A lane thread runs no task, so it has no task locals: the executor must
    /// hand the job's recorder to the closure, or the user's spans are lost.
    @Test func spansInAJobClosureNeedTheJobsRecorder() async {
        let lane = DispatchQueue(label: "closure-lane")
        let (_, trace) = await withTraceRecording {
            let token = Instrumentation.begin(.jobQueued(executor: "closure"))
            await withCheckedContinuation { continuation in
                lane.async {
                    marker("without the recorder")
                    Instrumentation.withRecorder(token?.recorder) { marker("with the recorder") }
                    Instrumentation.withRecorder(nil) { marker("with no recorder") }
                    continuation.resume()
                }
            }
        }
        #expect(markerNames(trace) == ["with the recorder"])
    }
}
