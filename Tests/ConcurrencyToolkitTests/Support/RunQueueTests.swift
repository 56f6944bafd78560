@testable import ConcurrencyToolkit
import Synchronization
import Testing

/// ``RunQueue``: the runnable count of `/proc/loadavg`, read at most once per interval.
@Suite struct RunQueueTests {
    @Test func theRunnableCountIsTheNumberBeforeTheSlashOfTheFourthField() {
        #expect(RunQueue.runnableCount(inLoadAverage: Array("0.50 0.40 0.30 3/200 12345\n".utf8)) == 3)
        #expect(RunQueue.runnableCount(inLoadAverage: Array("12.29 4.66 1.78 14/237 11507\n".utf8)) == 14)
        #expect(RunQueue.runnableCount(inLoadAverage: Array("".utf8)) == nil)
        #expect(RunQueue.runnableCount(inLoadAverage: Array("0.50 0.40 0.30".utf8)) == nil)
        #expect(RunQueue.runnableCount(inLoadAverage: Array("0.50 0.40 0.30 /200 1".utf8)) == nil)
        #expect(RunQueue.runnableCount(inLoadAverage: Array("0.50 0.40 0.30 x3/200 1".utf8)) == nil)
        #expect(RunQueue.runnableCount(inLoadAverage: Array("0.50 0.40 0.30 99999999999/2 1".utf8)) == nil)
    }

    @Test func itReadsAtMostOncePerIntervalAndGivesEachReadingToOneCaller() {
        let reads = Atomic<Int>(0)
        let queue = RunQueue(interval: 1_000) {
            reads.add(1, ordering: .relaxed)
            return reads.load(ordering: .relaxed) + 1
        }
        #expect(queue.reading(now: 5_000) == 2)
        #expect(queue.reading(now: 5_999) == nil)
        #expect(reads.load(ordering: .relaxed) == 1)
        #expect(queue.reading(now: 6_000) == 3)
        // A clock read taken before the last read (another thread's) reads nothing.
        #expect(queue.reading(now: 4_000) == nil)
        #expect(reads.load(ordering: .relaxed) == 2)
    }

    @Test func aPinnedCountIsWhatEveryCallGetsAndNothingIsRead() {
        let reads = Atomic<Int>(0)
        let queue = RunQueue(interval: 1_000) {
            reads.add(1, ordering: .relaxed)
            return 5
        }
        queue.pin(runnable: 1)
        #expect(queue.reading(now: 5_000) == 1)
        #expect(queue.reading(now: 5_001) == 1)
        #expect(reads.load(ordering: .relaxed) == 0)
    }

    @Test func withNothingToReadThereIsNoReading() {
        let queue = RunQueue(interval: 1_000) { nil }
        #expect(queue.reading(now: 5_000) == nil)
    }

    #if os(Linux)
    @Test func onLinuxTheCallingThreadIsAmongTheRunnable() throws {
        let count = try #require(RunQueue.readLoadAverage())
        #expect(count >= 1)
    }
    #endif
}
