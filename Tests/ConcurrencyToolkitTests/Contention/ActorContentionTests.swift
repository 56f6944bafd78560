@testable import ConcurrencyToolkit
import Testing
import TestSupport

extension TimingSensitive {
    /// Contention end to end: a real actor, the watcher thread, the holder's stack.
    @Suite struct ActorContentionTests {
        @Test func sixCallersBehindASlowMethodAreOneReportNamingIt() async {
            let label = uniqueLabel("SixCallers")
            let counter = MonitoredCounter(label: label)
            let reports = await contentionsRecorded(threshold: .milliseconds(100), label: label) {
                await withTaskGroup(of: Void.self) { group in
                    for _ in 0..<6 { group.addTask { await counter.holdTheActorFor50ms() } }
                }
            }
            #expect(reports.count == 1, "\(reports)")
            guard let report = reports.first else { return }
            #expect(report.longestWait >= .milliseconds(150), "\(report)")
            #expect(report.maxQueueDepth >= 3, "\(report)")
            // At most 5 of the 6: the first found the actor free (issue 39, item 2).
            #expect((3...5).contains(report.jobs), "\(report)")
            #expect(report.contention >= report.longestWait, "\(report)")
            #if os(Linux)
            // ThreadSanitizer defers signals: there the stack is not taken.
            guard !isRunningUnderThreadSanitizer else { return }
            #expect(report.holderBacktrace.contains { $0.contains("holdTheActorFor50ms()") }, "\(report)")
            #expect(report.holderThread != 0)
            #endif
        }

        /// File Squeezer's stage 2 (issue 39, item 8, the revert): the
        /// actor is released as soon as its callers are done, inside its
        /// episode's quiet period. The watcher dropped the episode with the
        /// released executor, and the run reported no contention although
        /// files had waited 732 ms. The holder runs at `.high`, as in
        /// aMoreUrgentJobOvertakesTheOnesWaiting, so the test's own waits
        /// find a thread.
        @Test func anEpisodeGoingOnWhenItsActorIsReleasedIsReported() async {
            let label = uniqueLabel("Released")
            let reports = await contentionsRecorded(threshold: .milliseconds(100), label: label) {
                let counter = MonitoredCounter(label: label)
                let gate = Counter()
                let holder = Task(priority: .high) { await counter.hold(until: gate) }
                #expect(await eventually { counter.executor.statistics.jobs == 1 })
                let waiter = Task { await counter.increment() }
                #expect(await eventually { counter.executor.statistics.queueDepth == 1 })
                try? await Task.sleep(for: .milliseconds(250))  // the waiter crosses the threshold
                gate.increment()
                await holder.value
                await waiter.value
            }  // the actor is gone here, well within the 200 ms quiet period
            #expect(reports.count == 1, "\(reports)")
            #expect(reports.first.map { !$0.isOngoing && $0.longestWait >= .milliseconds(100) } == true, "\(reports)")
        }

        @Test func callersThatNeverOverlapReportNothing() async {
            let label = uniqueLabel("OneAtATime")
            let counter = MonitoredCounter(label: label)
            let reports = await contentionsRecorded(threshold: .milliseconds(100), label: label) {
                for _ in 0..<6 { await counter.holdTheActorFor50ms() }
            }
            #expect(reports.isEmpty, "\(reports)")
            let stats = counter.executor.statistics
            #expect(stats.jobs == 6)
            // Zero but for a runner preempted between a job and its bookkeeping.
            #expect(stats.longestWait < .milliseconds(100), "\(stats)")
        }

        /// A saturated pool is not contention. Before each call, one more
        /// blocking task than the pool has threads is queued at the caller's
        /// priority: when the caller suspends into the idle actor, its
        /// thread takes a blocker, so the actor's runner waits ~300 ms for a
        /// thread with nothing running on the actor. That wait is the pool's
        /// (a stall), and was reported as contention with no holder (CI,
        /// 1.1 s); no job waited behind another, so nothing is reported.
        @Test func callsThatWaitOnlyForAThreadAreNoContention() async {
            let label = uniqueLabel("SaturatedPool")
            let counter = MonitoredCounter(label: label)
            let priority = Task.currentPriority
            let reports = await contentionsRecorded(threshold: .milliseconds(100), label: label) {
                for _ in 0..<3 {
                    let blockers = (0...activeProcessorCount).map { _ in
                        Task.detached(priority: priority) { blockThread(milliseconds: 300) }
                    }
                    await counter.increment()  // ~300 ms late (before the fix: a 301 ms wait, reported)
                    for blocker in blockers { await blocker.value }
                }
            }
            #expect(reports.isEmpty, "\(reports)")
            let stats = counter.executor.statistics
            #expect(stats.jobs == 3)
            #expect(stats.longestWait < .milliseconds(100), "\(stats)")
        }

        @Test func statisticsShowTheWaitsAndTheBusyTime() async {
            let counter = MonitoredCounter(label: uniqueLabel("Statistics"))
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 { group.addTask { await counter.holdTheActorFor50ms() } }
            }
            let stats = counter.executor.statistics
            #expect(stats.jobs == 4)
            // Loose bounds: the callers may reach the actor late on a busy machine.
            #expect(stats.longestWait >= .milliseconds(40), "\(stats)")
            #expect(stats.busyTime >= .milliseconds(200), "\(stats)")
            #expect(stats.contention >= stats.longestWait, "\(stats)")
            #expect(stats.busyFraction > 0 && stats.busyFraction <= 1, "\(stats)")
            #expect(stats.medianWait <= stats.p99Wait)
        }

        /// Holds a pool thread while it waits: kept apart from the timing
        /// tests. The holder runs at `.high`, not the test's priority: on
        /// Linux each priority has its own pool threads, and at the test's
        /// the serialized end-to-end tests may hold the other of CI's two,
        /// which left no thread for the test's own waits (as in
        /// MonitoredActorTraceTests).
        @Test func aMoreUrgentJobOvertakesTheOnesWaiting() async {
            let counter = MonitoredCounter(label: uniqueLabel("Priority"))
            let gate = Counter()
            let holder = Task(priority: .high) { await counter.hold(until: gate) }
            #expect(await eventually { counter.executor.statistics.jobs == 1 })
            var lows: [Task<Void, Never>] = []
            for index in 0..<3 {
                lows.append(Task(priority: .low) { await counter.record("low \(index)") })
                // One at a time, so their order is known.
                #expect(await eventually { counter.executor.statistics.queueDepth == index + 1 })
            }
            let high = Task(priority: .high) { await counter.record("high") }
            #expect(await eventually { counter.executor.statistics.queueDepth == 4 })
            gate.increment()
            await holder.value
            await high.value
            for low in lows { await low.value }
            let order = await counter.order
            #expect(order == ["high", "low 0", "low 1", "low 2"])
        }
    }
}
