@testable import ConcurrencyToolkit
import Testing
import TestSupport

/// `StallDetector.waitForEndedReports(within:)`: at the end of a run, the
/// stall that just ended is in the handler's hands when it returns, and with
/// no stall it returns at once. Each test in a child process of its own (the
/// detector and its handler are process-wide).
@Suite(.timingSensitive) struct WaitForEndedReportsTests {
    // Exit tests exist on macOS and Linux only; stalls are captured on Linux.
    #if os(macOS) || os(Linux)
    #if os(Linux)
    @Test func theLastStallIsReportedWhenItReturns() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let stalls = Collected<ConcurrencyStall>()
                ConcurrencyStallHandler.bootstrap(.custom { stalls.append($0) })
                StallDetector.start(threshold: .milliseconds(200))
                await StallDemand.shared.watchdog?.waitUntilProbesRun()
                // The main actor, then every pool thread (whose end waits for a prompt probe).
                await MainActor.run { blockTheMainActorFor400ms() }
                await StallDetector.waitForEndedReports(within: .seconds(60))
                let afterMain = stalls.values.filter { $0.kind == .mainActorBlocked && !$0.isOngoing }.count
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<activeProcessorCount { group.addTask { blockEveryPoolThread() } }
                }
                await StallDetector.waitForEndedReports(within: .seconds(60))
                let afterPool = stalls.values.filter { $0.kind == .cooperativePoolBlocked && !$0.isOngoing }.count
                writeToStandardError("MAIN \(afterMain) POOL \(afterPool)\n")
            })
        let text = String(decoding: result.standardErrorContent, as: UTF8.self)
        // At least one: a blocked pool can stall at two priorities on a loaded machine.
        #expect(text.contains("MAIN 1 POOL"), "\(text)")
        #expect(!text.contains("POOL 0\n"), "\(text)")
    }

    @Test func withNoStallItReturnsAtOnce() async throws {
        await #expect(processExitsWith: .success) {
            StallDetector.start(threshold: .milliseconds(200))
            await StallDemand.shared.watchdog?.waitUntilProbesRun()
            let start = ContinuousClock.now
            await StallDetector.waitForEndedReports(within: .seconds(30))
            // At once, not after a look or the limit (generous: a loaded machine).
            precondition(ContinuousClock.now - start < .seconds(5), "waited \(ContinuousClock.now - start)")
            StallDetector.stop()
            await StallDetector.waitForEndedReports(within: .seconds(30))  // not running: returns
        }
    }
    #endif
    #endif
}
