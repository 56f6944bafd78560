import ConcurrencyToolkit
import Dispatch
import Testing
import TestSupport

/// `BlockingExecutor.run` and `shutdown` wait at the caller's line, in a
/// trace, its summary and the pending registry: the Blocking cases of
/// Diagnostics/WaitSiteTests.swift's suite.
extension WaitSiteTests {
    private static let blockingFile = "ConcurrencyToolkitTests/BlockingExecutorWaitSiteTests.swift"

    @Test func runAndShutdownWaitAtTheCallersLine() async throws {
        let io = BlockingExecutor(width: 1, label: "wait-sites")
        let (runLine, shutdownLine) = (#line + 2, #line + 3)
        let (value, trace) = try await withTraceRecording {
            let value = try await io.run { 42 }
            await io.shutdown()
            return value
        }
        #expect(value == 42)
        #expect(waitSites(trace) == ["\(Self.blockingFile):\(runLine)", "\(Self.blockingFile):\(shutdownLine)"])
        #expect(trace.summary().contains("wait at \(Self.blockingFile):\(runLine)"))
        #expect(!trace.summary().contains("ConcurrencyToolkit/"))
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
                    $0.site.fileID == "ConcurrencyToolkitTests/BlockingExecutorWaitSiteTests.swift" && $0.site.line == line
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
