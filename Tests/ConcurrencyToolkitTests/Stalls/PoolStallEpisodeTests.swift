@testable import ConcurrencyToolkit
import Testing
import TestSupport

/// Issue 39: one block of the pool is one report, whichever priorities it
/// made late, and a main-actor stall that only mirrors it is part of it.
/// The watchdog's composition, without threads: a tracker per priority, and
/// what they report ended goes through the episode.
@Suite struct PoolStallEpisodeTests {
    /// Drives the trackers through one look each, the way the watchdog does,
    /// and returns what reaches the handler.
    struct Looks {
        var trackers = [StallStateMachine(endsOnPromptAnswer: true), StallStateMachine(endsOnPromptAnswer: true)]
        let priorities: [TaskPriority] = [.medium, .low]
        var episode = PoolStallEpisode()

        mutating func look(
            _ statuses: [(pendingSince: UInt64?, answered: (sentAt: UInt64, ranAt: UInt64)?)], now: UInt64,
            mainActorWaited: UInt64? = nil
        ) -> [ConcurrencyStall] {
            var actions: [StallStateMachine.Action] = []
            for index in trackers.indices {
                actions.append(trackers[index].observe(
                    pendingSince: statuses[index].pendingSince, answered: statuses[index].answered, now: now, threshold: 250))
            }
            let poolLasting = trackers.contains(where: \.isLasting)
            for (index, action) in actions.enumerated() {
                guard case .reportEnded(let serial, _) = action, let span = trackers[index].lastEnded else { continue }
                var part = ConcurrencyStall(kind: .cooperativePoolBlocked, duration: .zero)
                part.serial = serial
                part.priority = priorities[index]
                episode.add(part, since: span.since, end: span.end, hostShare: nil)
            }
            if let mainActorWaited, poolLasting || episode.isOpen { episode.foldMainActor(waited: mainActorWaited) }
            return episode.close(poolLasting: poolLasting).map { [$0] } ?? []
        }
    }

    /// `.medium` blocked 0–900, `.low` late 20–880 in the same block (a loaded
    /// machine): each tracker has its own stall, and before, each was a report.
    @Test func oneBlockThatMakesTwoPrioritiesLateIsOneReport() {
        var looks = Looks()
        var reports: [ConcurrencyStall] = []
        reports += looks.look([(0, nil), (20, nil)], now: 300)
        reports += looks.look([(0, nil), (20, nil)], now: 600)
        reports += looks.look([(nil, (0, 900)), (nil, (20, 880))], now: 950)
        #expect(reports.isEmpty)  // each waits for its prompt answer
        // `.low` answers promptly first: its stall ended, the pool's has not.
        reports += looks.look([(950, nil), (nil, (950, 955))], now: 1000)
        #expect(reports.isEmpty)
        reports += looks.look([(nil, (950, 960)), (nil, (950, 955))], now: 1050)
        #expect(reports.count == 1)
        #expect(reports.first?.duration == .nanoseconds(900))
        #expect(reports.first?.priority == .medium)
        #expect(reports.first?.mainActorDelay == nil)
        // A later block is a report of its own.
        reports += looks.look([(1100, nil), (nil, (950, 955))], now: 1400)
        reports += looks.look([(nil, (1100, 1500)), (nil, (950, 955))], now: 1550)
        reports += looks.look([(nil, (1550, 1555)), (nil, (950, 955))], now: 1650)
        #expect(reports.count == 2)
        #expect(reports.last?.duration == .nanoseconds(400))
    }

    /// The main actor's queue drained by the pool's threads: its stall ends
    /// with the pool's block, and goes into the pool's report.
    @Test func aMainActorStallThatMirrorsThePoolsIsPartOfItsReport() {
        var looks = Looks()
        var reports = looks.look([(0, nil), (nil, nil)], now: 300)
        reports += looks.look([(nil, (0, 600)), (nil, nil)], now: 620, mainActorWaited: 590)
        reports += looks.look([(nil, (620, 625)), (nil, nil)], now: 720)
        #expect(reports.count == 1)
        #expect(reports.first?.mainActorDelay == .nanoseconds(590))
        #expect(reports.first?.duration == .nanoseconds(600))
        // With no pool stall, a main-actor stall is not folded anywhere.
        reports += looks.look([(nil, (720, 725)), (nil, nil)], now: 1200, mainActorWaited: 400)
        #expect(reports.count == 1)
        #expect(!looks.episode.isOpen)
    }

    @Test func theMergedReportKeepsEveryThreadOnceAndSaysWhatTheMainActorWaited() {
        var episode = PoolStallEpisode()
        let first = ConcurrencyStall(kind: .cooperativePoolBlocked, duration: .zero, threads: [.init(id: 1, backtrace: ["a"])])
        let second = ConcurrencyStall(
            kind: .cooperativePoolBlocked, duration: .zero, threads: [.init(id: 1, backtrace: ["a"]), .init(id: 2, backtrace: ["b"])])
        episode.add(first, since: 100_000_000, end: 400_000_000, hostShare: 0.8)
        episode.add(second, since: 50_000_000, end: 380_000_000, hostShare: nil)
        episode.foldMainActor(waited: 200_000_000)
        episode.foldMainActor(waited: 100_000_000)  // held up twice in one block: in all
        let report = episode.close(poolLasting: false)
        #expect(report?.threads.map(\.id) == [1, 2])
        #expect(report?.duration == .milliseconds(350))
        #expect(report?.hostDelay == .milliseconds(280))
        #expect(report?.description.contains("; the main actor, whose queue the pool's threads drain, ran no job for 300 ms of it") == true)
    }
}

/// The main thread's state says whether the pool's threads drain the main queue.
@Suite struct MainQueueDrainTests {
    @Test func anExitedMainThreadIsAZombie() {
        // `dispatch_main()` ends the main thread with pthread_exit (seen with a C program: state Z).
        #expect(MainQueue.hasExited(statLine: "14660 (z) Z 14643 14643 4687 0 -1 4227084 86 0"))
        #expect(!MainQueue.hasExited(statLine: "14660 (my (odd) app) S 14643 14643 4687 0 -1"))
        #expect(!MainQueue.hasExited(statLine: "14660 (Z) R 1"))
        #expect(!MainQueue.hasExited(statLine: ""))
    }
}

#if os(Linux)
extension MainQueueDrainTests {
    /// An async `main`'s main thread, read from /proc while a release program
    /// ran: `130 0x7fe7dbd5a078 0x8 0x10 0x7fe7db13f828 0x0 0x7ffee28c2d87 0x7ffee28c2ea0 0x7fe7db170301`.
    @Test func aMainThreadParkedInDispatchMainWaitsInSigsuspend() {
        let parked = ThreadStatus.parse(
            syscallLine: "130 0x7fe7dbd5a078 0x8 0x10 0x7fe7db13f828 0x0 0x7ffee28c2d87 0x7ffee28c2ea0 0x7fe7db170301\n")
        #if arch(x86_64)
        #expect(MainQueue.isParkedInDispatchMain(parked))
        #endif
        #expect(!MainQueue.isParkedInDispatchMain(.running))
        #expect(!MainQueue.isParkedInDispatchMain(ThreadStatus.parse(syscallLine: "7 0x1 0x2 0x3 0x4 0x5 0x6 0x7ff 0x7fe\n")))
    }
}
#endif
