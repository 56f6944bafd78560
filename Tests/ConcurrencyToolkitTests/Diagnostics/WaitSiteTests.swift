import ConcurrencyToolkit
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TestSupport

/// Every toolkit API that waits names the caller's line, not its own, in a
/// trace, its summary and the pending registry.
@Suite(.timeLimit(.minutes(1))) struct WaitSiteTests {
    static let file = "ConcurrencyToolkitTests/WaitSiteTests.swift"

    /// `file:line` of every continuation wait in `trace`.
    private func waitSites(_ trace: Trace) -> [String] {
        trace.events.compactMap { if case .continuationCreated(let site) = $0.kind { "\(site.fileID):\(site.line)" } else { nil } }
    }

    @Test func runAndShutdownWaitAtTheCallersLine() async throws {
        let io = BlockingExecutor(width: 1, label: "wait-sites")
        let (runLine, shutdownLine) = (#line + 2, #line + 3)
        let (value, trace) = try await withTraceRecording {
            let value = try await io.run { 42 }
            await io.shutdown()
            return value
        }
        #expect(value == 42)
        #expect(waitSites(trace) == ["\(Self.file):\(runLine)", "\(Self.file):\(shutdownLine)"])
        #expect(trace.summary().contains("wait at \(Self.file):\(runLine)"))
        #expect(!trace.summary().contains("ConcurrencyToolkit/"))
    }

    @Test func finishWaitsAtTheCallersLine() async {
        let (progressLine, keyedLine, batchLine) = (#line + 5, #line + 6, #line + 7)
        let (_, trace) = await withTraceRecording {
            let progress = ThrottledProgress<Int>(interval: .seconds(3600)) { _ in }
            let keyed = KeyedThrottledProgress<String, Int>(interval: .seconds(3600)) { _ in }
            let batches = BatchingReporter<Int>(interval: .seconds(3600), capacity: 8) { _ in }
            await progress.finish()
            await keyed.finish()
            await batches.finish()
        }
        let sites = waitSites(trace)
        for line in [progressLine, keyedLine, batchLine] {
            #expect(sites.contains("\(Self.file):\(line)"))
            #expect(trace.summary().contains("wait at \(Self.file):\(line)"))
        }
    }

    @Test func concurrentMapAndForEachNameTheCallersLine() async {
        let (mapLine, forEachLine) = (#line + 2, #line + 3)
        let (_, trace) = await withTraceRecording {
            _ = await [1, 2, 3].concurrentMap(maxConcurrency: 2) { $0 * 2 }
            await [1, 2].concurrentForEach(maxConcurrency: 2) { _ in }
        }
        let spans = trace.events.compactMap { if case .asyncSpanStarted(let name) = $0.kind { name } else { nil } }
        #expect(spans == ["concurrentMap at \(Self.file):\(mapLine)", "concurrentMap at \(Self.file):\(forEachLine)"])
        #expect(trace.chromeTraceJSON().contains("concurrentMap at \(Self.file):\(mapLine)"))
    }

    #if os(macOS) || os(Linux)
    @Test func thePendingRegistryListsAWaitingRunAtTheCallersLine() async {
        // In a child process: tracking is process-wide, and other suites toggle it.
        await #expect(processExitsWith: .success) {
            PendingContinuations.isTracking = true
            let gate = DispatchSemaphore(value: 0)
            let line = #line; let job = Task { try await BlockingExecutor.shared.run { gate.wait() } }
            var listed = false
            for _ in 0..<500 where !listed {
                listed = PendingContinuations.snapshot().pending.contains {
                    $0.site.fileID == "ConcurrencyToolkitTests/WaitSiteTests.swift" && $0.site.line == line
                }
                if !listed { usleep(2_000) }
            }
            gate.signal()
            _ = try? await job.value
            if !listed { exit(1) }
        }
    }
    #endif
}
