import ConcurrencyToolkit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TestSupport

@Suite(.serialized, .timeLimit(.minutes(1))) struct RegistryTests {
    /// The listed continuations created by `function` in this file.
    static func listed(by function: String) -> [PendingContinuation] {
        PendingContinuations.snapshot().pending.filter {
            $0.site.fileID == "ConcurrencyToolkitTests/RegistryTests.swift" && $0.site.function == function
        }
    }

    @Test func listsExactlyThePendingContinuationsWithSiteAgeAndPriority() async throws {
        PendingContinuations.isTracking = true
        defer { PendingContinuations.isTracking = false }
        let function = #function
        let parked = Collected<SafeContinuation<Int, any Error>>()
        let line = #line + 3
        let waiters = [TaskPriority.low, .high, .medium].map { priority in
            Task(priority: priority) {
                try await withSafeThrowingContinuation(timeout: .seconds(60)) { parked.append($0) }
            }
        }
        #expect(await eventually { parked.count == 3 })
        try await Task.sleep(for: .milliseconds(30))
        let listed = Self.listed(by: function)
        #expect(listed.count == 3)
        #expect(listed.allSatisfy { $0.site.line == line })
        #expect(listed.allSatisfy { $0.age >= .milliseconds(30) && $0.age < .seconds(60) })
        #expect(listed.allSatisfy { $0.timeout == .seconds(60) })
        #expect(Set(listed.map(\.priority.rawValue)) == Set([TaskPriority.low, .high, .medium].map(\.rawValue)))

        let continuations = parked.removeAll()
        continuations[0].resume(returning: 1)
        #expect(Self.listed(by: function).count == 2, "a resumed continuation leaves the list at once")
        for continuation in continuations.dropFirst() { continuation.resume(returning: 2) }
        #expect(Self.listed(by: function).isEmpty)
        for waiter in waiters { _ = try await waiter.value }
    }

    #if os(macOS) || os(Linux)  // exit tests: Apple's other platforms have none
    @Test func theEnvironmentVariableTurnsTrackingOnFromTheFirstContinuation() async {
        // A fresh process: the variable is read when the first continuation is made.
        await #expect(processExitsWith: .success) {
            setenv("CONCURRENCY_TOOLKIT_TRACK_CONTINUATIONS", "1", 1)
            let listedWhileWaiting = await withSafeContinuation(ifLeaked: false) { continuation in
                continuation.resume(returning: PendingContinuations.snapshot().pending.count == 1)
            }
            guard listedWhileWaiting, PendingContinuations.isTracking else { exit(1) }
        }
        await #expect(processExitsWith: .success) {
            setenv("CONCURRENCY_TOOLKIT_TRACK_CONTINUATIONS", "0", 1)
            let listedWhileWaiting = await withSafeContinuation(ifLeaked: true) { continuation in
                continuation.resume(returning: !PendingContinuations.snapshot().pending.isEmpty)
            }
            guard !listedWhileWaiting, !PendingContinuations.isTracking else { exit(1) }
        }
    }
    #endif

    @Test func timedOutCancelledAndLeakedContinuationsLeaveTheListAndAreCounted() async throws {
        PendingContinuations.isTracking = true
        defer { PendingContinuations.isTracking = false }
        let before = PendingContinuations.snapshot()
        let kept = Collected<SafeContinuation<Int, any Error>>()
        _ = await outcome { try await withSafeThrowingContinuation(timeout: .milliseconds(5)) { kept.append($0) } }
        _ = await outcome { try await withSafeThrowingContinuation(timeout: .seconds(60)) { (_: SafeContinuation<Int, any Error>) in } }
        let cancelled = Task {
            await outcome { try await withSafeThrowingContinuation(onCancel: {}) { kept.append($0) } }
        }
        #expect(await eventually { kept.count == 2 })
        cancelled.cancel()
        _ = await cancelled.value
        #expect(Self.listed(by: #function).isEmpty)
        let after = PendingContinuations.snapshot()
        // Counters are process-wide and other tests run in parallel: at least ours.
        #expect(after.timedOut >= before.timedOut + 1)
        #expect(after.leaked >= before.leaked + 1)
        #expect(after.cancelled >= before.cancelled + 1)
        for continuation in kept.removeAll() { #expect(!continuation.resume(returning: 0)) }
        #expect(PendingContinuations.snapshot().lateResumes >= before.lateResumes + 2)
    }

    @Test func continuationsCreatedWhileTrackingIsOffAreNotListed() async throws {
        PendingContinuations.isTracking = false
        let parked = Collected<SafeContinuation<Int, any Error>>()
        let waiter = Task { try await withSafeThrowingContinuation { parked.append($0) } }
        #expect(await eventually { parked.count == 1 })
        #expect(Self.listed(by: #function).isEmpty)
        parked.removeAll()[0].resume(returning: 0)
        _ = try await waiter.value
    }
}
