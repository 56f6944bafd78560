@testable import ConcurrencyToolkit
import Foundation
import Testing

extension TimingSensitive {
    /// The spin-then-idle hand-off under real threads: callers submit at gaps
    /// spread around the lane's spin window, so many submissions land exactly
    /// as a lane gives up its spin. A stranded job would hang its caller; the
    /// time limit turns that into a failure. The number of hand-offs is
    /// `BLOCKING_HANDOFF_STRESS_COUNT` per caller, two callers (default 20,000:
    /// about 2 s in a debug build; under ThreadSanitizer 120,000 ran in 26 s
    /// on the 2-core machine, the size for a ~30 s sanitizer run).
    @Suite struct BlockingHandOffStressTests {
        static let count = ProcessInfo.processInfo.environment["BLOCKING_HANDOFF_STRESS_COUNT"]
            .flatMap(Int.init) ?? 20_000

        @Test(.timeLimit(.minutes(3)))
        func noJobSubmittedAsALaneStopsSpinningIsStranded() async throws {
            let executor = BlockingExecutor(width: 2, label: "hand-off-stress")
            // Off by default (it measured no gain); the parking code stays, so it stays tested.
            executor.enableLaneSpin()
            let count = Self.count
            let sums = try await withThrowingTaskGroup(of: Int.self) { group in
                for caller in 0..<2 {
                    group.addTask {
                        var sum = 0
                        for i in 0..<count {
                            // Gaps from 0 to ~80 µs, around the 50 µs longest window.
                            let gap = UInt64((i &* 7 &+ caller &* 13) % 81) * 1_000
                            let start = MonotonicClock.now
                            while MonotonicClock.now &- start < gap {}
                            sum += try await executor.run { i }
                        }
                        return sum
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(sums == [count * (count - 1) / 2, count * (count - 1) / 2])
            #expect(executor.metrics.completed == 2 * count)
            #expect(executor.metrics.running == 0)
            await executor.shutdown()
        }
    }
}
