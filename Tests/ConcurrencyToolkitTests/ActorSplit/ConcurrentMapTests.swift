@testable import ConcurrencyToolkit
import Foundation
import Synchronization
import Testing
import TestSupport

struct ItemFailed: Error, Equatable {
    let index: Int
}

@Suite(.timeLimit(.minutes(2))) struct ConcurrentMapTests {
    @Test func resultsComeBackInInputOrder() async {
        let doubled = await (0..<200).concurrentMap(maxConcurrency: 8) { value in
            // Later elements often finish first.
            try? await Task.sleep(for: .microseconds((200 - value) * 20))
            return value * 2
        }
        #expect(doubled == (0..<200).map { $0 * 2 })
    }

    @Test(arguments: [1, 3, 4])
    func peakConcurrencyIsReachedAndNeverExceeded(maxConcurrency: Int) async {
        let running = Atomic<Int>(0)
        let peak = Atomic<Int>(0)
        await (0..<(maxConcurrency * 4)).concurrentForEach(maxConcurrency: maxConcurrency) { _ in
            let now = running.add(1, ordering: .sequentiallyConsistent).newValue
            peak.max(now, ordering: .sequentiallyConsistent)
            // Hold the slot until the window is full (or it is clear it never will be),
            // so reaching the peak does not depend on scheduling luck.
            let giveUp = ContinuousClock.now.advanced(by: .seconds(5))
            while peak.load(ordering: .sequentiallyConsistent) < maxConcurrency, ContinuousClock.now < giveUp {
                try? await Task.sleep(for: .milliseconds(1))
            }
            running.subtract(1, ordering: .sequentiallyConsistent)
        }
        #expect(peak.load(ordering: .sequentiallyConsistent) == maxConcurrency)
    }

    @Test func theFirstErrorCancelsTheRestAndIsRethrown() async {
        let started = Atomic<Int>(0)
        let sawCancellation = Atomic<Int>(0)
        let start = ContinuousClock.now
        await #expect(throws: ItemFailed(index: 2)) {
            _ = try await (0..<100).concurrentMap(maxConcurrency: 4) { (index: Int) async throws(ItemFailed) -> Int in
                started.add(1, ordering: .relaxed)
                if index == 2 {
                    try? await Task.sleep(for: .milliseconds(10))
                    throw ItemFailed(index: index)
                }
                do {
                    try await Task.sleep(for: .seconds(600))
                } catch {
                    sawCancellation.add(1, ordering: .relaxed)
                }
                return index
            }
        }
        // Far below the sleeps the failure cancels, far above a starved run:
        // under ThreadSanitizer, beside suites that load both cores, it took 36 s once.
        let elapsed = ContinuousClock.now - start
        #expect(elapsed < .seconds(300), "the sleeps were not cancelled: \(elapsed)")
        // Elements 0...3 started; the failure came before any other finished, so no fifth one started.
        #expect(started.load(ordering: .relaxed) == 4)
        #expect(sawCancellation.load(ordering: .relaxed) == 3)
    }

    @Test @MainActor func bodiesRunOffTheMainActorWhenCalledFromIt() async {
        MainActor.assertIsolated()
        let onMain = await (0..<16).concurrentMap(maxConcurrency: 4) { _ in Thread.isMainThread }
        #expect(onMain == Array(repeating: false, count: 16))

        let mainThreadBodies = Atomic<Int>(0)
        await (0..<16).concurrentForEach { _ in
            if Thread.isMainThread { mainThreadBodies.add(1, ordering: .relaxed) }
        }
        #expect(mainThreadBodies.load(ordering: .relaxed) == 0)
    }

    @Test func forEachRunsEveryElementExactlyOnce() async {
        let seen = Collected<Int>()
        await (0..<1_000).concurrentForEach(maxConcurrency: 3) { value in
            seen.append(value)
        }
        #expect(seen.values.sorted() == Array(0..<1_000))
    }

    @Test func anEmptySequenceAndTheDefaultWidthWork() async throws {
        let none = try await [Int]().concurrentMap { (value: Int) async throws -> Int in value }
        #expect(none.isEmpty)
        #expect(activeProcessorCount >= 1)
        let all = await Array(0..<10).concurrentMap { $0 + 1 }  // no `try`: the body cannot throw
        #expect(all == Array(1...10))
    }
}
