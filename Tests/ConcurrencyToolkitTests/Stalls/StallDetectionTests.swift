@testable import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport

/// The detector end to end, each test in a child process of its own.
@Suite(.timingSensitive) struct StallDetectionTests {
    // Exit tests exist on macOS and Linux only; the stacks these tests
    // expect are captured on Linux only (Documentation/StallDetection.md,
    // Platforms).
    #if os(macOS) || os(Linux)
    #if os(Linux)
    @Test func blockedMainActorIsOneStallNamingTheFunction() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let (_, stalls) = await withConcurrencyStallsRecorded(threshold: .milliseconds(200)) {
                    await MainActor.run { blockTheMainActorFor400ms() }
                }
                writeStallLines(stalls)
            })
        let stalls = RecordedStall.parse(result.standardErrorContent)
        let main = stalls.filter { $0.kind == "mainActorBlocked" }
        #expect(main.count == 1, "\(stalls)")
        #expect(main.first?.isOngoing == false, "\(stalls)")
        #expect((main.first?.milliseconds ?? 0) >= 300, "\(stalls)")
        // ThreadSanitizer defers signals and its runtime frames stop the
        // unwinder: there the stall is detected, its stacks are not taken.
        guard !isRunningUnderThreadSanitizer else { return }
        #expect(main.first?.frames.contains { $0.contains("blockThread(milliseconds:)") } == true, "\(stalls)")
        #expect(main.first?.frames.contains { $0.contains("blockTheMainActorFor400ms()") } == true, "\(stalls)")
    }

    @Test func blockedPoolIsAStallNamingTheFunction() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let ended = Counter()
                let (_, stalls) = await withConcurrencyStallsRecorded(threshold: .milliseconds(200)) {
                    // A second scope sees the same reports: wait for the ended
                    // one, not for the helper's few looks (capped at 5 s, which
                    // a slow first symbolication under AddressSanitizer outlasts).
                    await withConcurrencyStallHandler(.custom { stall in
                        if stall.kind == .cooperativePoolBlocked, !stall.isOngoing { ended.increment() }
                    }) {
                        await withTaskGroup(of: Void.self) { group in
                            for _ in 0..<activeProcessorCount { group.addTask { blockEveryPoolThread() } }
                        }
                        _ = await eventually(within: .seconds(60)) { ended.count > 0 }
                    }
                }
                writeStallLines(stalls)
            })
        let stalls = RecordedStall.parse(result.standardErrorContent)
        let pool = stalls.filter { $0.kind == "cooperativePoolBlocked" }
        #expect(pool.count >= 1, "\(stalls)")
        guard !isRunningUnderThreadSanitizer else { return }
        #expect(pool.contains { $0.frames.contains { $0.contains("blockEveryPoolThread()") } }, "\(stalls)")
        #expect(pool.allSatisfy { !$0.isOngoing }, "\(stalls)")
        // On Linux an async main hands the main queue to the pool's workers
        // (dispatch_main), so a blocked pool stalls the main actor too.
    }

    /// A stall's capture signal would cut a blocking call short (`poll`
    /// returns -1 with `EINTR`; no `SA_RESTART` restarts it): the threads
    /// running an executor's jobs are never signalled. This job's `poll`
    /// spans a pool stall whose stacks are captured, and still sleeps to
    /// its timeout. (Before: -1, EINTR, and a test of ours flaked on it.)
    @Test func aBlockingCallOnAnExecutorsLaneIsNotInterruptedByACapture() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let executor = BlockingExecutor(width: 1, label: "poller")
                let polling = Counter()
                let (polled, stalls) = await withConcurrencyStallsRecorded(threshold: .milliseconds(200)) {
                    async let polled = try? executor.run { () -> (ready: Int32, error: Int32) in
                        polling.increment()
                        let ready = poll(nil, 0, 1_500)  // no descriptors: sleeps 1.5 s unless a signal ends it
                        return (ready, ready == -1 ? errno : 0)
                    }
                    while polling.count == 0 { try? await Task.sleep(for: .milliseconds(5)) }
                    await withTaskGroup(of: Void.self) { group in
                        for _ in 0..<activeProcessorCount { group.addTask { blockEveryPoolThread() } }
                    }
                    return await polled
                }
                writeStallLines(stalls)
                writeToStandardError("POLL\t\(polled.map { "\($0.ready) \($0.error)" } ?? "threw")\n")
                await executor.shutdown()
            })
        let text = String(decoding: result.standardErrorContent, as: UTF8.self)
        let stalls = RecordedStall.parse(result.standardErrorContent)
        #expect(stalls.contains { $0.kind == "cooperativePoolBlocked" }, "\(text)")
        #expect(text.contains("POLL\t0 0\n"), "poll(…, 1500) returned early: \(text)")
        // The stacks were really captured while the job polled (a stall seen
        // only once it ended is captured by no signal, and would prove nothing).
        // ThreadSanitizer defers signals: no stacks there.
        guard !isRunningUnderThreadSanitizer else { return }
        #expect(stalls.contains { $0.frames.contains { $0.contains("blockEveryPoolThread()") } }, "\(text)")
    }

    @Test func aStallIsATraceEventInTheActiveRecording() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let recorder = TraceRecorder()
                await recorder.record {
                    _ = await withConcurrencyStallsRecorded(threshold: .milliseconds(200)) {
                        await MainActor.run { blockTheMainActorFor400ms() }
                        // Until the ended report is in the recording, not for
                        // the helper's few looks: under AddressSanitizer the
                        // first symbolication alone can outlast them.
                        await waitForAnEndedStall(in: recorder)
                    }
                }
                let trace = recorder.trace
                writeToStandardError(trace.summary())
                writeToStandardError(trace.chromeTraceJSON())
                writeToStandardError(trace.svgTimeline())
            })
        let text = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(text.contains("Stalls: "), "\(text)")
        #expect(text.contains("the main actor ran no job for"), "\(text)")
        #expect(text.contains("\"stall\""), "the JSON category: \(text)")
        #expect(text.contains("stall (main actor or pool)"), "the SVG legend: \(text)")
    }

    @Test func startedForTheProcessItWritesTheBlockAndTracesEveryRecording() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                StallDetector.start(threshold: .milliseconds(200))
                StallDetector.start(threshold: .milliseconds(200))  // idempotent
                let recorder = TraceRecorder()
                await recorder.record {
                    await StallDemand.shared.watchdog?.waitUntilProbesRun()
                    await MainActor.run { blockTheMainActorFor400ms() }
                    // Until the end is reported: within two looks, but the
                    // first report waits for the first symbolication, which
                    // took over 5 s under AddressSanitizer on a loaded machine.
                    await waitForAnEndedStall(in: recorder)
                    // The trace gets the report just before the process-wide
                    // handler does: let that look finish before stopping.
                    await StallDemand.shared.watchdog?.waitForLooks(2)
                }
                let trace = recorder.trace
                StallDetector.stop()
                StallDetector.stop()  // idempotent
                writeToStandardError(StallDetector.isRunning ? "STILL RUNNING\n" : "STOPPED\n")
                writeToStandardError(trace.summary())
            })
        let text = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(text.contains("CONCURRENCY STALL: the main actor ran no job for"), "\(text)")
        #expect(text.contains("(ended)"), "\(text)")
        #expect(text.contains("Stalls: "), "\(text)")
        #expect(text.contains("STOPPED"), "\(text)")
    }

    @Test func wellBehavedWorkIsNoStall() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                // A generous threshold: a loaded machine alone delays probes by
                // a few hundred ms; the blocking calls would stall for 1.5 s.
                let (_, stalls) = await withConcurrencyStallsRecorded(threshold: .seconds(1)) {
                    await wellBehavedWork()
                }
                writeStallLines(stalls)
                writeToStandardError("DONE\n")
            })
        let text = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(text.contains("DONE"))
        #expect(RecordedStall.parse(result.standardErrorContent).isEmpty, "\(text)")
    }
    #endif
    #endif
}

/// Async sleeps, blocking calls on a BlockingExecutor, and a pool kept busy
/// by tasks that yield, 1.5 s each: the pool and the main actor stay
/// responsive. (The same blocking calls run on the pool would block both of
/// its threads for 3 s.)
func wellBehavedWork() async {
    let executor = BlockingExecutor(width: 2, label: "stall-test")
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<4 {
            group.addTask { try? await Task.sleep(for: .milliseconds(1_500)) }
            group.addTask { _ = try? await executor.run { blockThread(milliseconds: 1_500) } }
            group.addTask {
                let end = MonotonicClock.now + 1_500_000_000
                var spins = 0
                while MonotonicClock.now < end {
                    for _ in 0..<10_000 { spins &+= 1 }
                    await Task.yield()
                }
            }
        }
        group.addTask { await mainActorNaps() }
    }
}

@MainActor func mainActorNaps() async {
    for _ in 0..<75 { try? await Task.sleep(for: .milliseconds(20)) }
}
