@testable import ConcurrencyToolkit
import Testing
import TestSupport

extension TimingSensitive {
    /// The shared timer itself, without the cooperative pool's scheduling
    /// delay in the measurement: how late after its deadline does it fire?
    @Suite struct TimerAccuracyTests {
        /// Stands in for a box: records when the scheduler interrupts it.
        final class Probe: InterruptibleStorage, @unchecked Sendable {
            let firedAt = Lock<UInt64?>(nil)
            override func timeOut(after timeout: Duration) -> (@Sendable () -> Void)? {
                firedAt.withLock { $0 = MonotonicClock.now }
                return nil
            }
        }

        @Test(arguments: [1, 20, 50])
        func firesAfterItsDeadlineAndSoonAfter(milliseconds: Int) async throws {
            let probe = Probe()
            let start = MonotonicClock.now
            TimeoutScheduler.shared.schedule(probe, after: .milliseconds(milliseconds))
            #expect(await eventually { probe.firedAt.withLock { $0 } != nil })
            let fired = try #require(probe.firedAt.withLock { $0 })
            let lateness = Int64(fired) - Int64(start) - Int64(milliseconds) * 1_000_000
            #expect(lateness >= 0, "fired \(lateness) ns before its deadline")
            // Promise: the 0.5 ms leeway plus the timer
            // thread's wake-up on a loaded 2-core machine. 250 ms catches a
            // broken timer without flaking when five compilers share the cores.
            #expect(lateness < 250_000_000, "fired \(Double(lateness) / 1e6) ms late")
        }

        @Test func removedEntryNeverFires() async throws {
            let probe = Probe()
            TimeoutScheduler.shared.schedule(probe, after: .milliseconds(5))
            TimeoutScheduler.shared.remove(at: { probe.timerIndex })
            try await Task.sleep(for: .milliseconds(50))
            #expect(probe.firedAt.withLock { $0 } == nil)
            #expect(probe.timerIndex == -1)
        }
    }
}
