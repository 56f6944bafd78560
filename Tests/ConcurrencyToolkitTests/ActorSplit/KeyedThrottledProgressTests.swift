@testable import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Foundation
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(2)), .timingSensitive) struct KeyedThrottledProgressTests {
    @Test @MainActor func aThousandKeysUpdatedAHundredThousandTimes() async {
        let interval = Duration.milliseconds(5)
        var merged: [Int: Int] = [:]
        let hops = Collected<Int>()
        let progress = KeyedThrottledProgress<Int, Int>(interval: interval) { @MainActor changed in
            MainActor.assertIsolated("delivery off the handler's actor")
            for (key, value) in changed {
                // Newest per key: a key never goes back to an older value.
                #expect(value >= merged[key, default: -1])
            }
            merged.merge(changed) { _, new in new }
            hops.append(changed.count)
        }
        let start = ContinuousClock.now
        await onBackgroundThread {
            for round in 0..<100 {
                for key in 0..<1_000 { progress.report(round, for: key) }
            }
        }
        await progress.finish()
        let elapsed = ContinuousClock.now - start

        #expect(merged.count == 1_000)
        #expect(merged.values.allSatisfy { $0 == 99 })
        #expect(hops.values.count <= Int(elapsed / interval) + 2)
        #expect(hops.values.allSatisfy { $0 <= 1_000 })
        print("keyed: 100,000 updates of 1,000 keys in \(elapsed): \(hops.values.count) main-actor hops")
    }

    @Test func eightThreadsEachKeepTheirFinalValue() async {
        let merged = Lock<[Int: Int]>([:])
        let progress = KeyedThrottledProgress<Int, Int>(interval: .milliseconds(1)) { changed in
            merged.withLock { $0.merge(changed) { _, new in new } }
        }
        await onBackgroundThreads(8) { thread in
            for step in 0..<50_000 { progress.report(step, for: thread) }
        }
        await progress.finish()
        #expect(merged.withLock { $0 } == Dictionary(uniqueKeysWithValues: (0..<8).map { ($0, 49_999) }))
    }

    @Test @MainActor func oneHopCarriesEveryKeyChangedSinceTheLast() async {
        let clock = ManualClock()
        let batches = Collected<[String: Int]>()
        let progress = KeyedThrottledProgress<String, Int>(interval: .milliseconds(100), clock: clock) {
            @MainActor changed in batches.append(changed)
        }
        progress.report(1, for: "a")
        await batches.waitForCount(1)
        await clock.waitForSleepers(count: 1)
        progress.report(1, for: "b")
        progress.report(2, for: "a")
        progress.report(1, for: "c")
        progress.report(2, for: "b")
        clock.advance(by: .milliseconds(100))
        await batches.waitForCount(2)
        await clock.waitForSleepers(count: 1)
        progress.report(3, for: "c")
        await progress.finish()
        #expect(batches.values == [["a": 1], ["a": 2, "b": 2, "c": 1], ["c": 3]])
    }
}
