@testable import ConcurrencyToolkit
import Testing
import TestSupport

extension TimingSensitive {
    /// `ActorContentionDetector.waitForReports(within:)`: what a program calls
    /// before its summary instead of a fixed sleep.
    @Suite struct WaitForReportsTests {
        @Test func returnsOnceTheDueReportWasDelivered() async {
            let label = uniqueLabel("WaitForReports")
            let counter = MonitoredCounter(label: label)
            let delivered = Collected<ActorContention>()
            await ActorContentionDetector.recording(threshold: .milliseconds(20), report: { report in
                if report.label == label { delivered.append(report) }
            }) {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<3 { group.addTask { await counter.holdTheActorFor50ms() } }
                }
                let start = ContinuousClock.now
                let done = await ActorContentionDetector.waitForReports(within: .seconds(10))
                #expect(done)
                // At least one: on a loaded machine the three holders may reach the actor far enough apart to be two episodes.
                #expect(delivered.count >= 1)
                #expect(ContinuousClock.now - start < .seconds(10))
            }
        }

        @Test func givesUpWhenTheLimitPasses() async {
            await ActorContentionDetector.recording(threshold: .milliseconds(20), report: { _ in }) {
                let start = ContinuousClock.now
                #expect(await ActorContentionDetector.waitForReports(within: .zero) == false)
                #expect(ContinuousClock.now - start < .seconds(1))
            }
        }
    }
}
