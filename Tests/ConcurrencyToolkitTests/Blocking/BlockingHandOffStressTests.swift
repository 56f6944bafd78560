@testable import ConcurrencyToolkit
import Foundation
import Testing
import TestSupport

private let handOffStressCount = ProcessInfo.processInfo.environment["BLOCKING_HANDOFF_STRESS_COUNT"]
    .flatMap(Int.init) ?? 20_000

/// The spin-then-park hand-offs under real threads: callers submit at
/// gaps spread around the lane's spin window, so many submissions land
/// exactly as a lane gives up its spin, and each caller polls for its
/// result as the lane resumes it, so many results land exactly as a
/// caller gives up polling and suspends. A stranded job or a lost resume
/// would hang its caller; the time limit turns that into a failure. The
/// number of hand-offs is `BLOCKING_HANDOFF_STRESS_COUNT` per caller, two
/// callers (default 20,000; `.ci/run` runs it once more with a million per
/// caller under ThreadSanitizer, about 4 minutes, and under AddressSanitizer
/// in a release build).
///
/// Its own suite, not under `TimingSensitive` (whose limit is 3 minutes),
/// with that suite's gate: it loads both cores while it runs. A hang fails
/// after 3 minutes at the default count, after 30 at a larger one.
@Suite(.timingSensitive, .longRun, .timeLimit(handOffStressCount > 20_000 ? .minutes(30) : .minutes(3)))
struct BlockingHandOffStressTests {
    static let count = handOffStressCount

    @Test
    func noJobSubmittedAsALaneStopsSpinningIsStranded() async throws {
        // Both spin windows are on by default (on more than one core). They
        // close while the machine's cores are busy, as they are in CI while
        // this runs: a pinned run-queue reading keeps them open whatever
        // runs beside the test, and caller 0 makes it busy for a quarter of
        // its hand-offs, so windows also close and reopen under the callers.
        let executor = BlockingExecutor(width: 2, label: "hand-off-stress")
        executor.runQueue.pin(runnable: 1)
        let count = Self.count
        let sums = try await withThrowingTaskGroup(of: Int.self) { group in
            for caller in 0..<2 {
                group.addTask {
                    var sum = 0
                    for i in 0..<count {
                        if caller == 0, i % 500 == 0 { executor.runQueue.pin(runnable: (i / 500) % 4 == 3 ? 64 : 1) }
                        // Gaps and job lengths from 0 to ~80 µs, around
                        // both windows (50 µs at most), in unrelated orders.
                        let gap = UInt64((i &* 7 &+ caller &* 13) % 81) * 1_000
                        let length = UInt64((i &* 11 &+ caller &* 5) % 83) * 1_000
                        let start = MonotonicClock.now
                        while MonotonicClock.now &- start < gap {}
                        sum += try await executor.run {
                            let started = MonotonicClock.now
                            while MonotonicClock.now &- started < length {}
                            return i
                        }
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
