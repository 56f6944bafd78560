@testable import ConcurrencyToolkit
import Foundation
import Synchronization
import Testing
import TestSupport

/// Real clock, real threads: the guarantees that must hold however the
/// scheduler behaves. Bounds are written so that a loaded machine only makes
/// them easier to meet (more time passes, so more deliveries are allowed).
@Suite(.timeLimit(.minutes(2)), .timingSensitive) struct ThrottledProgressLoadTests {
    static let interval = Duration.milliseconds(5)

    /// At most one delivery per interval, plus the immediate first one and the final one from `finish()`.
    static func maximumDeliveries(in elapsed: Duration) -> Int {
        Int(elapsed / interval) + 2
    }

    @Test @MainActor func aMillionReportsFromABackgroundThread() async {
        let seen = Collected<Int>()
        let progress = ThrottledProgress<Int>(interval: Self.interval) { @MainActor value in
            MainActor.assertIsolated("delivery off the handler's actor")
            seen.append(value)
        }
        let start = ContinuousClock.now
        await onBackgroundThread {
            for value in 0..<1_000_000 { progress.report(value) }
        }
        await progress.finish()
        let elapsed = ContinuousClock.now - start

        #expect(seen.values.last == 999_999)
        #expect(zip(seen.values, seen.values.dropFirst()).allSatisfy { $0 < $1 })  // increasing, never repeated
        #expect(seen.values.count <= Self.maximumDeliveries(in: elapsed))
        #expect(progress.storage.pumpTaskCount <= seen.values.count)
        print("1M reports in \(elapsed): \(seen.values.count) deliveries, \(progress.storage.pumpTaskCount) task(s)")
    }

    @Test func deliveriesLandOnAnyGlobalActor() async {
        let count = Lock(0)
        let progress = ThrottledProgress<Int>(interval: Self.interval) { @TestLogActor value in
            TestLogActor.shared.assertIsolated("delivery off the handler's actor")
            count.withLock { $0 += 1 }
        }
        await onBackgroundThread {
            for value in 0..<100_000 { progress.report(value) }
        }
        await progress.finish()
        #expect(count.withLock { $0 } >= 1)
    }

    @Test func eightThreadsReportingConcurrentlyNeverOverlapAndKeepTheFinalValue() async {
        let inFlight = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let delivered = Collected<Int>()
        // Nonisolated handler: nothing but the reporter keeps deliveries apart.
        let progress = ThrottledProgress<Int>(interval: .milliseconds(1)) { value in
            if inFlight.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
                overlaps.add(1, ordering: .relaxed)
            }
            delivered.append(value)
            inFlight.subtract(1, ordering: .sequentiallyConsistent)
        }
        await onBackgroundThreads(8) { thread in
            for step in 0..<100_000 { progress.report(thread * 1_000_000 + step) }
        }
        let final = -1
        progress.report(final)
        await progress.finish()

        let values = delivered.values
        #expect(values.last == final)
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(Set(values).count == values.count)  // the same report is never delivered twice
        // Each thread's own values reach the handler in the order it reported them.
        for thread in 0..<8 {
            let own = values.filter { $0 >= 0 && $0 / 1_000_000 == thread }
            #expect(own == own.sorted())
        }
    }

    /// The talk's pattern, one `Task { @MainActor in }` per update, against the
    /// reporter. Only what always holds is asserted about the naive side; its
    /// out-of-order count depends on the scheduler and is printed, not asserted.
    @Test @MainActor func sideBySideWithATaskPerUpdate() async {
        let updates = 20_000

        let naive = Collected<Int>()
        let naiveTasks = Lock(0)
        let naiveStart = ContinuousClock.now
        await onBackgroundThread {
            for value in 0..<updates {
                naiveTasks.withLock { $0 += 1 }
                Task { @MainActor in naive.append(value) }
            }
        }
        await naive.waitForCount(updates)
        let naiveElapsed = ContinuousClock.now - naiveStart

        let throttled = Collected<Int>()
        let progress = ThrottledProgress<Int>(interval: .milliseconds(16)) { @MainActor value in
            throttled.append(value)
        }
        let start = ContinuousClock.now
        await onBackgroundThread {
            for value in 0..<updates { progress.report(value) }
        }
        await progress.finish()
        let elapsed = ContinuousClock.now - start

        #expect(naiveTasks.withLock { $0 } == updates)
        #expect(naive.values.count == updates)
        #expect(Set(naive.values).count == updates)

        #expect(backwardSteps(throttled.values) == 0)
        #expect(throttled.values.last == updates - 1)
        #expect(throttled.values.count <= Int(elapsed / .milliseconds(16)) + 2)
        #expect(progress.storage.pumpTaskCount <= throttled.values.count)

        print("""
            side by side, \(updates) updates from one background thread:
              Task per update:   \(naiveTasks.withLock { $0 }) tasks, \(naive.values.count) main-actor deliveries, \
            \(backwardSteps(naive.values)) backward steps, last shown \(naive.values.last ?? -1), \(naiveElapsed)
              ThrottledProgress: \(progress.storage.pumpTaskCount) task(s), \(throttled.values.count) main-actor deliveries, \
            \(backwardSteps(throttled.values)) backward steps, last shown \(throttled.values.last ?? -1), \(elapsed)
            """)
    }
}
