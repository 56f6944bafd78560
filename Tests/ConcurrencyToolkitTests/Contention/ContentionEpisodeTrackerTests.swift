@testable import ConcurrencyToolkit
import Testing
import TestSupport

/// Looks in, episodes out, without threads.
@Suite struct ContentionEpisodeTrackerTests {
    let threshold: UInt64 = 100

    func look(oldest: UInt64, current: ContentionPeaks?, ended: ContentionPeaks? = nil) -> ContentionObservation {
        ContentionObservation(oldestWait: oldest, depth: current?.maxDepth ?? 0, holderThread: 7, holderSerial: 1, current: current, ended: ended)
    }

    func peaks(since: UInt64 = 0, wait: UInt64, depth: Int, jobs: Int, waited: UInt64 = 0) -> ContentionPeaks {
        ContentionPeaks(since: since, maxWait: wait, maxDepth: depth, jobs: jobs, waitingTime: waited)
    }

    @Test func shortWaitsAreNoEpisode() {
        var tracker = ContentionEpisodeTracker()
        #expect(tracker.observe(look(oldest: 0, current: peaks(wait: 5, depth: 1, jobs: 1)), threshold: threshold, now: 50) == .none)
        #expect(tracker.observe(look(oldest: 0, current: nil, ended: peaks(wait: 20, depth: 2, jobs: 3)), threshold: threshold, now: 60) == .none)
    }

    @Test func anEpisodeBeginsAtTheThresholdAndIsReportedOnceWhenItEnds() {
        var tracker = ContentionEpisodeTracker()
        #expect(tracker.observe(look(oldest: 0, current: peaks(wait: 0, depth: 5, jobs: 5)), threshold: threshold, now: 50) == .none)
        #expect(tracker.observe(look(oldest: 110, current: peaks(wait: 50, depth: 5, jobs: 5)), threshold: threshold, now: 110) == .began)
        tracker.holderCaptured([0x1234, 0x5678], thread: 7)
        #expect(tracker.observe(look(oldest: 160, current: peaks(wait: 110, depth: 5, jobs: 5)), threshold: threshold, now: 160) == .continuing(needsHolder: false))
        // The backlog ended between looks: its full numbers replace the open ones.
        let action = tracker.observe(look(oldest: 0, current: nil, ended: peaks(wait: 250, depth: 5, jobs: 5, waited: 750)), threshold: threshold, now: 260)
        guard case .ended(let episode, restartPeaks: false) = action else { Issue.record("\(action)"); return }
        #expect(episode.peaks == peaks(wait: 250, depth: 5, jobs: 5, waited: 750))
        #expect(episode.holderStack == [0x1234, 0x5678])
        #expect(tracker.observe(look(oldest: 0, current: nil), threshold: threshold, now: 300) == .none)
    }

    @Test func anEpisodeEndingInsideAGoingBacklogRestartsItsPeaks() {
        var tracker = ContentionEpisodeTracker()
        _ = tracker.observe(look(oldest: 120, current: peaks(wait: 0, depth: 3, jobs: 3)), threshold: threshold, now: 120)
        let action = tracker.observe(look(oldest: 30, current: peaks(wait: 140, depth: 3, jobs: 6)), threshold: threshold, now: 150)
        guard case .ended(let episode, restartPeaks: true) = action else { Issue.record("\(action)"); return }
        #expect(episode.peaks.maxWait == 140)
        #expect(episode.peaks.jobs == 6)
    }

    @Test func aHolderNotCapturedIsAskedForAgain() {
        var tracker = ContentionEpisodeTracker()
        _ = tracker.observe(look(oldest: 120, current: peaks(wait: 0, depth: 3, jobs: 3)), threshold: threshold, now: 120)
        tracker.holderCaptured([], thread: 7)
        #expect(tracker.observe(look(oldest: 140, current: peaks(wait: 0, depth: 3, jobs: 3)), threshold: threshold, now: 140) == .continuing(needsHolder: true))
    }

    @Test func aLongWaitThatEndedBetweenTwoLooksIsReportedWithoutAHolder() {
        var tracker = ContentionEpisodeTracker()
        let action = tracker.observe(look(oldest: 0, current: nil, ended: peaks(since: 10, wait: 130, depth: 2, jobs: 2)), threshold: threshold, now: 200)
        guard case .missed(let episode) = action else { Issue.record("\(action)"); return }
        #expect(episode.peaks.maxWait == 130)
        #expect(episode.holderStack.isEmpty)
    }
}
