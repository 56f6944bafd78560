import Dispatch
import Testing

@testable import ConcurrencyToolkit
import TestSupport

/// A safe continuation reports its wait (created at its site, then how it
/// ended) to the recording of the task that created it.
@Suite(.timeLimit(.minutes(2))) struct ContinuationTracingTests {
    @Test func waitIsCreatedAtItsSiteAndResumed() async throws {
        let line = #line + 2
        let (value, trace) = await withTraceRecording {
            await withSafeContinuation(ifLeaked: 0) { continuation in
                DispatchQueue.global().async {
                    letTheWaiterSuspendUnderThreadSanitizer()
                    continuation.resume(returning: 7)
                }
            }
        }
        #expect(value == 7)
        let created = try #require(trace.events { if case .continuationCreated = $0 { true } else { false } }.first)
        guard case .continuationCreated(let site) = created.kind else { return }
        #expect(site.fileID == #fileID)
        #expect(site.line == line)
        #expect(trace.events(withID: created.id) == [created.kind, .continuationResumed])
        #expect(trace.discardedEventCount == 0)
    }

    @Test func timeoutEndsTheWait() async throws {
        let kept = Collected<SafeContinuation<Int, any Error>>()
        let (_, trace) = await withTraceRecording {
            await #expect(throws: SafeContinuationError.timedOut) {
                try await withSafeThrowingContinuation(timeout: .milliseconds(5)) { kept.append($0) }
            }
        }
        let created = try #require(trace.events { if case .continuationCreated = $0 { true } else { false } }.first)
        #expect(trace.events(withID: created.id).last == .continuationTimedOut)
        #expect(kept.values.first?.resume(returning: 1) == false)  // late: dropped, not misuse
    }

    @Test func cancellationEndsTheWait() async throws {
        let (_, trace) = await withTraceRecording {
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await withSafeThrowingContinuation(onCancel: {}) { (_: SafeContinuation<Int, any Error>) in
                    Issue.record("the body of an already cancelled wait ran")
                }
            }
            await #expect(throws: CancellationError.self) { try await task.value }
        }
        let created = try #require(trace.events { if case .continuationCreated = $0 { true } else { false } }.first)
        #expect(trace.events(withID: created.id) == [created.kind, .continuationCancelled])
    }

    @Test func doubleResumeIsRecordedAsMisuseWithBothSites() async throws {
        let reports = Collected<ContinuationMisuse>()
        let (_, trace) = await withTraceRecording {
            await withContinuationMisuseHandler(.custom { reports.append($0) }) {
                await withSafeContinuation(ifLeaked: 0) { continuation in
                    continuation.resume(returning: 1)
                    continuation.resume(returning: 2)
                }
            }
        }
        let created = try #require(trace.events { if case .continuationCreated = $0 { true } else { false } }.first)
        let kinds = trace.events(withID: created.id)
        #expect(kinds.count == 3)
        #expect(kinds.dropFirst().first == .continuationResumed)
        guard case .continuationMisused(let misuse) = kinds.last else {
            Issue.record("no misuse event: \(kinds)")
            return
        }
        #expect(misuse.kind == .resumedMoreThanOnce)
        #expect(misuse == reports.values.first)  // the same report the handler got
        guard case .continuationCreated(let site) = created.kind else { return }
        #expect(misuse.creationSite == site)
    }

    @Test func leakEndsTheWaitWithAMisuseEvent() async throws {
        let (value, trace) = await withTraceRecording {
            await withContinuationMisuseHandler(.custom { _ in }) {
                await withSafeContinuation(ifLeaked: -1) { _ in }
            }
        }
        #expect(value == -1)
        let created = try #require(trace.events { if case .continuationCreated = $0 { true } else { false } }.first)
        let kinds = trace.events(withID: created.id)
        #expect(kinds.count == 2)
        guard case .continuationMisused(let misuse) = kinds.last else {
            Issue.record("no misuse event: \(kinds)")
            return
        }
        #expect(misuse.kind == .leaked)
        #expect(trace.withoutActors.summary().contains("Pending at the end: nothing"))  // the leak closed the wait
    }

    /// The wait's end is recorded before the waiter resumes, so a recording
    /// that stops right after never loses it, whichever thread resumed.
    @Test func waitEndsBeforeTheWaiterResumes() async {
        for round in 0..<200 {
            let (_, trace) = await withTraceRecording {
                await withSafeContinuation(ifLeaked: -1) { continuation in
                    DispatchQueue.global().async {
                        letTheWaiterSuspendUnderThreadSanitizer()
                        continuation.resume(returning: round)
                    }
                }
            }
            #expect(trace.withoutActors.events.map(\.kind).last == .continuationResumed)
            #expect(trace.discardedEventCount == 0)
        }
    }

    @Test func continuationsOutsideARecordingAreNotTraced() async {
        let (_, trace) = await withTraceRecording { marker("inside") }
        let value = await withSafeContinuation(ifLeaked: 0) { $0.resume(returning: 3) }
        #expect(value == 3)
        #expect(trace.withoutActors.events.map(\.kind) == [.marker(name: "inside")])
    }
}
