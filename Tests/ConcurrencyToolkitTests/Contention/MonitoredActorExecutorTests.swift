@testable import ConcurrencyToolkit
import Testing
import TestSupport

/// The executor keeps what an actor means, and counts every job.
@Suite struct MonitoredActorExecutorTests {
    @Test func tenThousandConcurrentIncrementsEndAtExactlyTenThousand() async {
        let counter = MonitoredCounter(label: uniqueLabel("Increments"))
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<10_000 { group.addTask { await counter.increment() } }
        }
        #expect(await counter.value == 10_000)
        let stats = counter.executor.statistics
        // Every increment, and the read of `value`.
        #expect(stats.jobs == 10_001)
        #expect(stats.queueDepth == 0)
        #expect(stats.maxQueueDepth >= 1)
        #expect(stats.longestWait >= stats.p99Wait / 2)
        #expect(stats.busyTime > .zero)
    }

    @Test func jobsCountsEveryJob() async {
        let counter = MonitoredCounter(label: uniqueLabel("Jobs"))
        #expect(counter.executor.statistics.jobs == 0)
        for _ in 0..<25 { await counter.increment() }
        #expect(counter.executor.statistics.jobs == 25)
        #expect(counter.executor.statistics.label.hasPrefix("Jobs-"))
    }

    @Test func isolationChecksHoldInsideAndNotOutside() async {
        let counter = MonitoredCounter(label: uniqueLabel("Isolation"))
        #expect(await counter.isolationHolds())
        #expect(counter.executor.isIsolatingCurrentContext() == false)
    }

    @Test func theExecutorIsReleasedWithItsActor() async {
        weak var weakExecutor: MonitoredActorExecutor?
        do {
            let counter = MonitoredCounter(label: uniqueLabel("Released"))
            weakExecutor = counter.executor
            await counter.increment()
        }
        #expect(await eventually { weakExecutor == nil })
    }
}
