import Dispatch
import Testing

@testable import ConcurrencyToolkit
import TestSupport

/// `BlockingExecutor` reports each job's life to the recording of the task
/// that called `run`, from the lane thread that runs it.
@Suite(.timeLimit(.minutes(2))) struct BlockingExecutorTracingTests {
    @Test func jobIsQueuedStartedAndFinishedOnItsLaneThread() async throws {
        let executor = BlockingExecutor(width: 1, label: "traced-io")
        let (laneThread, trace) = try await withTraceRecording {
            try await executor.run { () -> UInt64 in
                letTheWaiterSuspendUnderThreadSanitizer()
                span("inside the job") { marker("in the job") }
                return CurrentThread.id
            }
        }
        let queued = try #require(trace.events { if case .jobQueued = $0 { true } else { false } }.first)
        #expect(queued.kind == .jobQueued(executor: "traced-io"))
        #expect(queued.threadID != laneThread)  // the caller's thread, not the lane
        #expect(trace.events(withID: queued.id) == [
            .jobQueued(executor: "traced-io"), .jobStarted(executor: "traced-io", lane: 0), .jobFinished(failed: false),
        ])
        for event in trace.events where event.id == queued.id && event.kind != queued.kind {
            #expect(event.threadID == laneThread)
        }
        // The body ran with the submitter's recording, though the lane runs no task.
        let inBody = trace.events { kind in
            switch kind {
            case .spanStarted, .spanFinished, .marker: true
            default: false
            }
        }
        #expect(inBody.map(\.kind) == [.spanStarted(name: "inside the job"), .marker(name: "in the job"), .spanFinished])
        #expect(inBody.allSatisfy { $0.threadID == laneThread })
        let lane = TraceTimeline(trace).rows.first { $0.role == .lane(executor: "traced-io", index: 0) }
        #expect(lane?.name == "traced-io lane 0")
        #expect(lane?.threads == [laneThread])
        #expect(trace.discardedEventCount == 0)
        await executor.shutdown()
    }

    @Test func jobThatThrowsFinishesAsFailed() async throws {
        struct Broken: Error {}
        let executor = BlockingExecutor(width: 1, label: "throwing")
        let (_, trace) = await withTraceRecording {
            await #expect(throws: Broken.self) { try await executor.run {
                    letTheWaiterSuspendUnderThreadSanitizer()
                    throw Broken()
                } }
        }
        #expect(trace.events { $0 == .jobFinished(failed: true) }.count == 1)
        #expect(trace.events { $0 == .jobFinished(failed: false) }.isEmpty)
        await executor.shutdown()
    }

    @Test func jobCancelledWhileQueuedIsDiscarded() async throws {
        let executor = BlockingExecutor(width: 1, label: "busy")
        let gate = DispatchSemaphore(value: 0)
        let (_, trace) = try await withTraceRecording {
            let blocker = Task { try await executor.run { gate.wait() } }
            #expect(await eventually(within: .seconds(30)) { executor.metrics.running == 1 })
            let queued = Task { try await executor.run { Issue.record("a cancelled queued job ran") } }
            #expect(await eventually(within: .seconds(30)) { executor.metrics.queued == 1 })
            queued.cancel()
            await #expect(throws: CancellationError.self) { try await queued.value }
            gate.signal()
            try await blocker.value
        }
        let discarded = try #require(trace.events { if case .jobDiscarded = $0 { true } else { false } }.first)
        #expect(trace.events(withID: discarded.id) == [
            .jobQueued(executor: "busy"), .jobDiscarded(reason: "cancelled while queued"),
        ])
        #expect(trace.events { if case .jobStarted = $0 { true } else { false } }.count == 1)
        await executor.shutdown()
    }

    @Test func jobQueuedAtShutdownIsDiscarded() async throws {
        let executor = BlockingExecutor(width: 1, label: "closing")
        let gate = DispatchSemaphore(value: 0)
        let (_, trace) = try await withTraceRecording {
            let blocker = Task { try await executor.run { gate.wait() } }
            #expect(await eventually(within: .seconds(30)) { executor.metrics.running == 1 })
            let queued = Task { try await executor.run { Issue.record("a job queued at shutdown ran") } }
            #expect(await eventually(within: .seconds(30)) { executor.metrics.queued == 1 })
            let shutdown = Task { await executor.shutdown() }
            await #expect(throws: BlockingExecutor.ShutDownError.self) { try await queued.value }
            gate.signal()
            try await blocker.value
            await shutdown.value
        }
        #expect(trace.events { $0 == .jobDiscarded(reason: "executor shut down") }.count == 1)
    }

    /// The lane reports the end before it resumes the caller: a recording
    /// that stops as soon as `run` returns has every job finished, and
    /// nothing was dropped. Repeated, because the opposite order would lose
    /// the race only sometimes.
    @Test func jobEndsBeforeItsCallerResumes() async throws {
        let executor = BlockingExecutor(width: 2, label: "quick")
        for round in 0..<100 {
            let (_, trace) = try await withTraceRecording { try await executor.run {
                    letTheWaiterSuspendUnderThreadSanitizer()
                    return round
                } }
            #expect(trace.events { $0 == .jobFinished(failed: false) }.count == 1)
            #expect(trace.events { $0 == .continuationResumed }.count == 1)  // run's own wait
            #expect(trace.discardedEventCount == 0)
        }
        await executor.shutdown()
    }

    /// A job still running when the operation returns shows as started and
    /// unfinished; what it does afterwards is dropped and counted.
    @Test func nothingIsRecordedAfterTheEnd() async throws {
        let executor = BlockingExecutor(width: 1, label: "outliving")
        let gate = DispatchSemaphore(value: 0)
        let started = Counter()
        let recorder = TraceRecorder()
        let job = await recorder.record {
            let job = Task {
                try await executor.run {
                    started.increment()  // after the lane recorded the start
                    gate.wait()
                    marker("after the end")
                }
            }
            #expect(await eventually(within: .seconds(30)) { started.count == 1 })
            return job
        }
        let atTheEnd = recorder.trace
        gate.signal()
        try await job.value
        let later = recorder.trace
        #expect(later.events == atTheEnd.events)
        #expect(later.events { if case .jobStarted = $0 { true } else { false } }.count == 1)
        #expect(later.events { if case .jobFinished = $0 { true } else { false } }.isEmpty)
        #expect(later.markerNames.isEmpty)
        // The marker, the job's end and the end of run's continuation wait.
        #expect(later.discardedEventCount == 3)
        await executor.shutdown()
    }

    /// Two recordings share one executor (and so its lane threads): each sees
    /// exactly its own jobs and the markers their bodies made.
    @Test func parallelRecordingsOnOneExecutorDoNotMix() async throws {
        let executor = BlockingExecutor(width: 2, label: "shared")
        let traces = try await withThrowingTaskGroup(of: (String, Trace).self) { group in
            for name in ["a", "b"] {
                group.addTask {
                    let (_, trace) = try await withTraceRecording {
                        for step in 0..<20 {
                            try await executor.run {
                                marker("\(name)\(step)")
                                letTheWaiterSuspendUnderThreadSanitizer()
                            }
                        }
                    }
                    return (name, trace)
                }
            }
            var traces: [String: Trace] = [:]
            for try await (name, trace) in group { traces[name] = trace }
            return traces
        }
        for name in ["a", "b"] {
            let trace = try #require(traces[name])
            #expect(trace.markerNames == (0..<20).map { "\(name)\($0)" })
            let queued = trace.events { if case .jobQueued = $0 { true } else { false } }
            #expect(queued.count == 20)
            for job in queued {
                let kinds = trace.events(withID: job.id)
                #expect(kinds.count == 3)
                #expect(kinds.last == .jobFinished(failed: false))
            }
        }
        await executor.shutdown()
    }
}
