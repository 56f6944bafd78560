@testable import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Testing
import TestSupport

/// Deterministic: a manual clock, and waits on deliveries and sleepers instead of sleeps.
@Suite(.timeLimit(.minutes(1))) @MainActor struct ThrottledProgressScheduleTests {
    let clock = ManualClock()
    let log = Collected<(at: Duration, value: Int)>()

    func makeProgress(interval: Duration = .milliseconds(100)) -> ThrottledProgress<Int> {
        let clock = clock, log = log
        return ThrottledProgress(interval: interval, clock: clock) { @MainActor value in
            log.append((clock.now.offset, value))
        }
    }

    func waitUntilIdle(_ progress: ThrottledProgress<Int>) async {
        let idle = await eventually {
            if case .idle = progress.storage.phase { true } else { false }
        }
        #expect(idle)
    }

    func schedule() -> [String] {
        log.values.map { "\($0.at.components.seconds * 1000 + $0.at.components.attoseconds / 1_000_000_000_000_000)ms:\($0.value)" }
    }

    @Test func exactDeliveryScheduleForAScriptedSequence() async {
        let progress = makeProgress()
        func at(_ milliseconds: Int) { clock.advance(to: .zero.advanced(by: .milliseconds(milliseconds))) }

        progress.report(1)  // quiet before: delivered at once
        await log.waitForCount(1)
        await clock.waitForSleepers(count: 1)  // the pump waits for t = 100
        progress.report(2)
        progress.report(3)
        at(50)
        progress.report(4)  // 2 and 3 are superseded before their slot
        #expect(log.values.count == 1)
        at(100)
        await log.waitForCount(2)
        await clock.waitForSleepers(count: 1)  // waits for t = 200
        at(200)  // nothing pending: the pump ends
        await waitUntilIdle(progress)
        at(250)
        progress.report(5)  // more than an interval since the last delivery: at once
        await log.waitForCount(3)
        await clock.waitForSleepers(count: 1)  // waits for t = 350
        progress.report(6)
        await progress.finish()  // delivers 6 now, without waiting for t = 350
        #expect(schedule() == ["0ms:1", "100ms:4", "250ms:5", "250ms:6"])

        progress.report(7)
        at(1000)
        #expect(clock.sleeperCount == 0)
        #expect(schedule().count == 4)
        #expect(progress.storage.pumpTaskCount == 2)
        #expect(progress.storage.deliveryCount == 4)
    }

    @Test func finishRightAfterTheFirstReportDeliversItExactlyOnce() async {
        let progress = makeProgress()
        progress.report(42)
        async let first: Void = progress.finish()
        async let second: Void = progress.finish()
        _ = await (first, second)
        #expect(log.values.map(\.value) == [42])
        await progress.finish()
        #expect(log.values.map(\.value) == [42])
    }

    @Test func finishWithNothingPendingReturnsAtOnceWithoutDelivering() async {
        let progress = makeProgress()
        await progress.finish()
        progress.report(1)
        #expect(progress.storage.pumpTaskCount == 0)
        #expect(log.values.isEmpty)

        let delivered = makeProgress()
        delivered.report(1)
        await log.waitForCount(1)
        await delivered.finish()  // 1 was delivered already: not again
        #expect(log.values.map(\.value) == [1])
    }

    @Test func nothingIsDeliveredAfterCancel() async {
        var progress: ThrottledProgress<Int>? = makeProgress()
        progress?.report(1)
        await log.waitForCount(1)
        await clock.waitForSleepers(count: 1)
        progress?.report(2)
        progress?.cancel()
        #expect(clock.sleeperCount == 0)  // the pump was woken, not left sleeping
        progress?.report(3)
        await progress?.finish()  // returns at once after cancel
        weak let storage = progress?.storage
        progress = nil
        #expect(await eventually { storage == nil })  // the pump task ended
        clock.advance(by: .seconds(10))
        #expect(log.values.map(\.value) == [1])
    }

    @Test func droppingTheReporterCancelsAndEndsItsTask() async {
        var progress: ThrottledProgress<Int>? = makeProgress()
        progress?.report(1)
        await log.waitForCount(1)
        await clock.waitForSleepers(count: 1)
        progress?.report(2)
        weak let storage = progress?.storage
        progress = nil
        #expect(clock.sleeperCount == 0)
        #expect(await eventually { storage == nil })  // no task keeps it alive, no cycle
        clock.advance(by: .seconds(10))
        #expect(log.values.map(\.value) == [1])
    }

    @Test func cancelReleasesACallerWaitingInFinish() async {
        let progress = ThrottledProgress<Int>(interval: .milliseconds(100), clock: clock) { @TestLogActor _ in
            // Never returns quickly enough? It does; the point is the caller below.
        }
        progress.report(1)
        await clock.waitForSleepers(count: 1)
        progress.report(2)
        // The pump is attached and sleeping, so finish wakes it; cancel right after may win.
        async let finished: Void = progress.finish()
        progress.cancel()
        await finished
        let phase = progress.storage.phase
        #expect({ if case .cancelled = phase { true } else if case .finished = phase { true } else { false } }())
    }

    @Test func theStreamViewYieldsThrottledValuesThenEndsAfterFinish() async {
        let (progress, values) = ThrottledProgress<Int>.makeStream(interval: .milliseconds(100), clock: clock)
        let consumer = Task {
            var seen: [Int] = []
            for await value in values { seen.append(value) }
            return seen
        }
        progress.report(1)
        await clock.waitForSleepers(count: 1)
        for value in 2...1000 { progress.report(value) }
        await progress.finish()
        let seen = await consumer.value
        // 1 may have been replaced in the stream's one-element buffer by 1000 if the consumer was slow.
        #expect(seen.last == 1000)
        #expect(seen.count <= 2)
        #expect(seen == seen.sorted())
    }

    @Test func cancellingTheConsumerCancelsTheReporter() async {
        let (progress, values) = ThrottledProgress<Int>.makeStream(interval: .milliseconds(100), clock: clock)
        let consumer = Task {
            for await _ in values {}
        }
        progress.report(1)
        consumer.cancel()
        await consumer.value
        #expect(await eventually {
            if case .cancelled = progress.storage.phase { true } else { false }
        })
    }
}
