@testable import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Foundation
import Testing
import TestSupport

/// A log actor reached by instance, the case the `async` handler exists for.
actor LogStore {
    private(set) var lines: [Int] = []
    private(set) var appendCalls = 0
    func append(_ batch: [Int]) {
        lines += batch
        appendCalls += 1
    }
}

@Suite(.timeLimit(.minutes(2)), .timingSensitive) struct BatchingReporterTests {
    @Test func everyElementIsDeliveredExactlyOnceInOrder() async {
        let store = LogStore()
        let log = BatchingReporter<Int>(interval: .milliseconds(2), capacity: 1_000_000) { batch in
            await store.append(batch)
        }
        await onBackgroundThread {
            for line in 0..<200_000 { #expect(log.report(line)) }
        }
        await log.finish()
        #expect(await store.lines == Array(0..<200_000))
        #expect(log.droppedCount == 0)
        let calls = await store.appendCalls
        #expect(calls < 200_000)
        print("batching: 200,000 lines reached the log actor in \(calls) calls")
    }

    @Test func concurrentReportersKeepTheirOwnOrderAndLoseNothing() async {
        let delivered = Collected<Int>()
        let log = BatchingReporter<Int>(interval: .milliseconds(1), capacity: 1_000_000) { batch in
            for value in batch { delivered.append(value) }
        }
        await onBackgroundThreads(4) { thread in
            for step in 0..<50_000 { log.report(thread * 1_000_000 + step) }
        }
        await log.finish()
        let values = delivered.values
        #expect(values.count == 200_000)
        for thread in 0..<4 {
            #expect(values.filter { $0 / 1_000_000 == thread } == (0..<50_000).map { thread * 1_000_000 + $0 })
        }
    }

    @Test @MainActor func aFullBufferRefusesNewElementsAndCountsThem() async {
        let clock = ManualClock()
        let batches = Collected<[Int]>()
        let log = BatchingReporter<Int>(interval: .milliseconds(100), capacity: 3, clock: clock) {
            @MainActor batch in batches.append(batch)
        }
        #expect(log.report(0))
        await batches.waitForCount(1)
        await clock.waitForSleepers(count: 1)
        #expect((1...5).map { log.report($0) } == [true, true, true, false, false])
        #expect(log.droppedCount == 2)
        clock.advance(by: .milliseconds(100))
        await batches.waitForCount(2)
        #expect(log.report(6))  // room again after the delivery
        await log.finish()
        #expect(batches.values == [[0], [1, 2, 3], [6]])
        #expect(log.report(7) == false)  // finished
        #expect(log.droppedCount == 2)  // refusals after finish are not drops
    }
}
