@testable import ConcurrencyToolkit
import Testing
import TestSupport

/// The executor's state machine, without threads: order, runners, measures.
@Suite struct MonitoredQueueStateMachineTests {
    typealias Queue = MonitoredQueueStateMachine<Int, String>

    @Test func higherPriorityFirstAndFirstComeFirstServedWithinOne() {
        var queue = Queue()
        _ = queue.enqueue(1, priority: 0x15, now: 0)
        _ = queue.enqueue(2, priority: 0x15, now: 1)
        _ = queue.enqueue(3, priority: 0x19, now: 2)
        _ = queue.enqueue(4, priority: 0x09, now: 3)
        _ = queue.enqueue(5, priority: 0x19, now: 4)
        var order: [Int] = []
        var finished = false
        while case .run(let job) = queue.next(band: 3, now: 10, finished: finished, thread: 7) {
            order.append(job)
            finished = true
        }
        #expect(order == [3, 5, 1, 2, 4])
    }

    /// The holder's capture is kept only for the job seen at the look: the
    /// next job on the same runner thread is another holder (issue 39).
    @Test func theHolderIsTheSameJobNotTheNextOnItsThread() {
        var queue = Queue()
        _ = queue.enqueue(1, priority: 0x15, now: 0)
        _ = queue.enqueue(2, priority: 0x15, now: 1)
        guard case .run(1) = queue.next(band: 2, now: 2, finished: false, thread: 7) else { Issue.record("not 1"); return }
        let look = queue.observe(now: 3, threshold: 1_000)
        #expect(look.holderThread == 7)
        #expect(queue.isHolder(7, serial: look.holderSerial))
        guard case .run(2) = queue.next(band: 2, now: 4, finished: true, thread: 7) else { Issue.record("not 2"); return }
        #expect(queue.isHolder(7))
        #expect(!queue.isHolder(7, serial: look.holderSerial))
    }

    @Test func theFirstJobOfABandMakesItsRunnerThenReusesItParked() {
        var queue = Queue()
        guard case .spawn(let band) = queue.enqueue(1, priority: 0x15, now: 0) else { Issue.record("no spawn"); return }
        #expect(band == 2)
        // While a runner owns the queue, more jobs wake nobody.
        guard case .none = queue.enqueue(2, priority: 0x15, now: 1) else { Issue.record("woke twice"); return }
        guard case .run(1) = queue.next(band: 2, now: 2, finished: false, thread: 7) else { Issue.record("not 1"); return }
        guard case .run(2) = queue.next(band: 2, now: 3, finished: true, thread: 7) else { Issue.record("not 2"); return }
        guard case .idle = queue.next(band: 2, now: 4, finished: true, thread: 7) else { Issue.record("not idle"); return }
        guard case .parked = queue.park(band: 2, waker: "runner 2") else { Issue.record("not parked"); return }
        guard case .resume("runner 2") = queue.enqueue(3, priority: 0x15, now: 5) else { Issue.record("no resume"); return }
    }

    @Test func aWakeBeforeTheRunnerParkedIsNotLost() {
        var queue = Queue()
        _ = queue.enqueue(1, priority: 0x15, now: 0)
        _ = queue.next(band: 2, now: 1, finished: false, thread: 7)
        guard case .idle = queue.next(band: 2, now: 2, finished: true, thread: 7) else { Issue.record("not idle"); return }
        // Enqueued between the runner's last look and its park.
        guard case .none = queue.enqueue(2, priority: 0x15, now: 3) else { Issue.record("unexpected wake"); return }
        guard case .resumeNow(true) = queue.park(band: 2, waker: "runner 2") else { Issue.record("lost wake"); return }
        guard case .run(2) = queue.next(band: 2, now: 4, finished: false, thread: 7) else { Issue.record("not 2"); return }
    }

    @Test func aMoreUrgentJobIsHandedToItsBandsRunner() {
        var queue = Queue()
        _ = queue.enqueue(1, priority: 0x09, now: 0)
        _ = queue.next(band: 0, now: 1, finished: false, thread: 7)
        _ = queue.enqueue(2, priority: 0x19, now: 2)
        guard case .handOff(.spawn(band: 3)) = queue.next(band: 0, now: 3, finished: true, thread: 7) else {
            Issue.record("no hand-off")
            return
        }
        #expect(queue.running)
        guard case .run(2) = queue.next(band: 3, now: 4, finished: false, thread: 8) else { Issue.record("not 2"); return }
    }

    @Test func stoppingEndsParkedRunnersAndLaterOnes() {
        var queue = Queue()
        _ = queue.enqueue(1, priority: 0x15, now: 0)
        _ = queue.next(band: 2, now: 1, finished: false, thread: 7)
        _ = queue.next(band: 2, now: 2, finished: true, thread: 7)
        _ = queue.park(band: 2, waker: "runner 2")
        #expect(queue.stop() == ["runner 2"])
        guard case .resumeNow(false) = queue.park(band: 1, waker: "runner 1") else { Issue.record("not ended"); return }
    }

    @Test func measuresWaitsBehindOtherJobsDepthBusyTimeAndWaitingTime() {
        var queue = Queue()
        _ = queue.enqueue(1, priority: 0x15, now: 0)
        _ = queue.enqueue(2, priority: 0x15, now: 0)
        _ = queue.enqueue(3, priority: 0x15, now: 0)
        _ = queue.next(band: 2, now: 10, finished: false, thread: 7)  // 1 waited 0: nothing ran before it
        _ = queue.next(band: 2, now: 30, finished: true, thread: 7)  // 2 waited 20, behind 1
        _ = queue.next(band: 2, now: 60, finished: true, thread: 7)  // 3 waited 50, behind 1 and 2
        _ = queue.next(band: 2, now: 100, finished: true, thread: 7)
        let stats = queue.stats
        #expect(stats.started == 3)
        #expect(stats.maxDepth == 3)
        #expect(stats.longestWait == 50)
        #expect(stats.waits.smallest == 0)
        #expect(stats.busy == 90)
        // 2 jobs behind 1 for 20, 1 behind 2 for 30: the waits' sum.
        #expect(stats.waitingTime(now: 100) == 0 + 20 + 50)
        #expect(!queue.isHolder(7))
    }

    /// The flake this pins: on a saturated pool an idle actor's runner took
    /// 1.1 s to get a thread, and callers that never overlapped were
    /// reported as contention with no holder. Waiting for a thread is the
    /// stall detector's to report; nothing held the actor.
    @Test func waitingForAThreadWhileNothingRunsIsNoWait() {
        var queue = Queue()
        _ = queue.enqueue(1, priority: 0x15, now: 0)
        _ = queue.enqueue(2, priority: 0x15, now: 5)
        let look = queue.observe(now: 1_000_000_000, threshold: 100)
        #expect(look.oldestWait == 0)
        #expect(look.holderThread == 0)
        _ = queue.next(band: 2, now: 1_100_000_000, finished: false, thread: 7)  // 1: 1.1 s late, waited 0
        _ = queue.next(band: 2, now: 1_100_000_040, finished: true, thread: 7)  // 2: waited 40, behind 1
        _ = queue.next(band: 2, now: 1_100_000_050, finished: true, thread: 7)
        #expect(queue.stats.longestWait == 40)
        #expect(queue.stats.waitingTime(now: 2_000_000_000) == 40)
        // A hand-off between runners is not running either.
        _ = queue.enqueue(3, priority: 0x09, now: 2_000_000_000)
        _ = queue.next(band: 0, now: 2_000_000_010, finished: false, thread: 7)
        _ = queue.enqueue(4, priority: 0x19, now: 2_000_000_020)
        _ = queue.next(band: 0, now: 2_000_000_030, finished: true, thread: 7)  // hands off: 4 waited 10
        _ = queue.next(band: 3, now: 2_500_000_000, finished: false, thread: 8)  // the runner came 0.5 s later
        #expect(queue.stats.longestWait == 40)
        #expect(queue.stats.waits.percentile(1) == 40)
    }

    @Test func aJobQueuedBehindARunningOneWaitsWhileItRuns() {
        var queue = Queue()
        _ = queue.enqueue(1, priority: 0x15, now: 0)
        _ = queue.next(band: 2, now: 10, finished: false, thread: 7)
        _ = queue.enqueue(2, priority: 0x15, now: 100)  // 1 has run 90 so far
        #expect(queue.stats.waitingTime(now: 300) == 200)
        _ = queue.next(band: 2, now: 400, finished: true, thread: 7)  // 1 ran until 400
        #expect(queue.stats.longestWait == 300)
        #expect(queue.stats.waitingTime(now: 1_000) == 300)
    }

    @Test func theHolderIsTheThreadRunningAJob() {
        var queue = Queue()
        _ = queue.enqueue(1, priority: 0x15, now: 0)
        _ = queue.next(band: 2, now: 1, finished: false, thread: 7)
        #expect(queue.isHolder(7))
        #expect(!queue.isHolder(8))
    }

    @Test func aLookScansTheQueueOnlyForABacklogOlderThanTheThreshold() {
        var queue = Queue()
        _ = queue.enqueue(1, priority: 0x15, now: 100)
        _ = queue.next(band: 2, now: 110, finished: false, thread: 7)
        _ = queue.enqueue(2, priority: 0x15, now: 120)
        _ = queue.enqueue(3, priority: 0x19, now: 130)
        let early = queue.observe(now: 150, threshold: 50)
        #expect(early.oldestWait == 0)
        #expect(early.ended?.jobs == 0)  // the first job's own short backlog: it found the actor free
        let look = queue.observe(now: 200, threshold: 50)
        #expect(look.oldestWait == 80)  // 2, behind 1 since 120
        #expect(look.depth == 2)
        #expect(look.holderThread == 7)
        #expect(look.current?.maxDepth == 2)
        #expect(look.current?.jobs == 0, "none has started yet")
        #expect(look.current?.waitingTime == 80 + 70)
        #expect(look.ended == nil)  // taken once
    }

    /// Issue 39 (item 2): "6 jobs waited" counted the first job, which found
    /// the actor free and waited 0.
    @Test func aBacklogCountsOnlyTheJobsThatWaitedBehindAnother() {
        var queue = Queue()
        for job in 1...6 { _ = queue.enqueue(job, priority: 0x15, now: 0) }
        _ = queue.next(band: 2, now: 10, finished: false, thread: 7)  // 1 waited 0: nothing ran before it
        #expect(queue.observe(now: 20, threshold: 1_000).current?.jobs == 0)
        for time in stride(from: 60, through: 260, by: 50) as StrideThrough<UInt64> {
            _ = queue.next(band: 2, now: time, finished: true, thread: 7)  // 2…6, each behind the ones before
        }
        let look = queue.observe(now: 300, threshold: 1_000)
        #expect(look.ended?.jobs == 5)
        #expect(look.ended?.maxWait == 250)
        #expect(queue.stats.started == 6, "the statistics count every job started")
    }
}
