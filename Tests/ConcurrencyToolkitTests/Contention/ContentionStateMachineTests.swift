@testable import ConcurrencyToolkit
import Testing
import TestSupport

/// Looks in, episodes out, without threads: made-up looks on a made-up clock.
@Suite struct ContentionStateMachineTests {
    let threshold: UInt64 = 100
    /// The quiet period at that threshold: two thresholds.
    let quiet: UInt64 = 200
    let second: UInt64 = 1_000_000_000

    func look(oldest: UInt64, current: ContentionPeaks?, ended: ContentionPeaks? = nil) -> ContentionObservation {
        ContentionObservation(oldestWait: oldest, depth: current?.maxDepth ?? 0, holderThread: 7, holderSerial: 1, current: current, ended: ended)
    }

    func peaks(since: UInt64 = 0, wait: UInt64, depth: Int, jobs: Int, waited: UInt64 = 0) -> ContentionPeaks {
        ContentionPeaks(since: since, maxWait: wait, maxDepth: depth, jobs: jobs, waitingTime: waited)
    }

    /// Every action until the first `.ended`, looking with `make(time)` every `step` from `from` to `to`.
    func ended(
        _ tracker: inout ContentionStateMachine, from: UInt64, to: UInt64, step: UInt64 = 25,
        _ make: (UInt64) -> ContentionObservation
    ) -> (episode: ContentionStateMachine.Episode, at: UInt64)? {
        for now in stride(from: from, through: to, by: Int(step)) {
            if case .ended(let episode, _) = tracker.observe(make(now), threshold: threshold, now: now) { return (episode, now) }
        }
        return nil
    }

    @Test func shortWaitsAreNoEpisode() {
        var tracker = ContentionStateMachine()
        #expect(tracker.observe(look(oldest: 0, current: peaks(wait: 5, depth: 1, jobs: 1)), threshold: threshold, now: 50) == .none)
        #expect(tracker.observe(look(oldest: 0, current: nil, ended: peaks(wait: 20, depth: 2, jobs: 3)), threshold: threshold, now: 60) == .none)
        #expect(tracker.episode == nil)
    }

    @Test func anEpisodeEndsAfterTwoQuietThresholdsAndCoversItsBacklogWhole() {
        var tracker = ContentionStateMachine()
        #expect(tracker.observe(look(oldest: 0, current: peaks(wait: 0, depth: 5, jobs: 0)), threshold: threshold, now: 50) == .none)
        #expect(tracker.observe(look(oldest: 110, current: peaks(wait: 50, depth: 5, jobs: 1)), threshold: threshold, now: 110) == .began)
        tracker.holderCaptured([0x1234, 0x5678], thread: 7)
        #expect(tracker.observe(look(oldest: 160, current: peaks(wait: 110, depth: 5, jobs: 2)), threshold: threshold, now: 160) == .continuing(needsHolder: false))
        // The backlog ended between looks, with a longer wait than seen: contended until then.
        let last = tracker.observe(look(oldest: 0, current: nil, ended: peaks(wait: 250, depth: 5, jobs: 4, waited: 750)), threshold: threshold, now: 260)
        #expect(last == .continuing(needsHolder: false))
        #expect(tracker.observe(look(oldest: 0, current: nil), threshold: threshold, now: 300) == .continuing(needsHolder: false))
        #expect(tracker.observe(look(oldest: 0, current: nil), threshold: threshold, now: 300 + quiet - 1) == .continuing(needsHolder: false))
        let action = tracker.observe(look(oldest: 0, current: nil), threshold: threshold, now: 300 + quiet)
        guard case .ended(let episode, restartPeaks: false) = action else { Issue.record("\(action)"); return }
        #expect(episode.peaks == peaks(wait: 250, depth: 5, jobs: 4, waited: 750))
        #expect(episode.holderStack == [0x1234, 0x5678])
        #expect(episode.duration(now: 300 + quiet) == 300, "up to the first quiet look, not the end of the quiet period")
        #expect(tracker.observe(look(oldest: 0, current: nil), threshold: threshold, now: 600) == .none)
    }

    /// The flap of issue 39 (item 8): a long episode followed within 20–50
    /// ms by short ones, at a 50 ms threshold. The tail of the backlog, whose
    /// waits dip under the threshold and cross it again, is one episode.
    @Test func waitsThatDipUnderTheThresholdAndCrossItAgainAreOneEpisode() {
        var tracker = ContentionStateMachine()
        var reports: [ContentionStateMachine.Episode] = []
        // One backlog from 0 to 750: waits over the threshold, under it for
        // 75 (three looks), over it again, under it, then the backlog drains.
        func make(_ now: UInt64) -> ContentionObservation {
            let oldest: UInt64 = (now >= 400 && now < 475) || now >= 700 ? 40 : 150
            let backlog = peaks(wait: min(now, 150), depth: 4, jobs: Int(now / 50))
            return now < 750 ? look(oldest: oldest, current: backlog) : look(oldest: 0, current: nil)
        }
        for now in stride(from: UInt64(100), through: 1_500, by: 25) {
            if case .ended(let episode, _) = tracker.observe(make(now), threshold: threshold, now: now) { reports.append(episode) }
        }
        #expect(reports.count == 1, "\(reports)")
        #expect(reports.first?.peaks.jobs == 14, "the tail's jobs are in the episode")
        #expect(reports.first?.duration(now: 1_500) == 700, "from the backlog's start to the first quiet look")
    }

    @Test func aQuietSpellShorterThanTwoThresholdsDoesNotEndIt() throws {
        var tracker = ContentionStateMachine()
        let hot = look(oldest: 150, current: peaks(wait: 150, depth: 3, jobs: 2))
        let cool = look(oldest: 0, current: peaks(wait: 150, depth: 1, jobs: 3))
        #expect(tracker.observe(hot, threshold: threshold, now: 150) == .began)
        for now in stride(from: UInt64(175), through: 150 + quiet, by: 25) {
            let action = tracker.observe(cool, threshold: threshold, now: now)
            #expect(action == .continuing(needsHolder: false), "at \(now)")
        }
        let end = try #require(ended(&tracker, from: 175 + quiet, to: 1_000) { _ in cool })
        #expect(end.at == 175 + quiet)
    }

    @Test func aSettlingLookEndsAQuietEpisodeAtOnce() {
        var tracker = ContentionStateMachine()
        _ = tracker.observe(look(oldest: 120, current: peaks(wait: 0, depth: 3, jobs: 1)), threshold: threshold, now: 120)
        #expect(tracker.observe(look(oldest: 130, current: peaks(wait: 0, depth: 3, jobs: 1)), threshold: threshold, now: 130, settling: true) == .continuing(needsHolder: true))
        let action = tracker.observe(look(oldest: 0, current: nil, ended: peaks(wait: 140, depth: 3, jobs: 2)), threshold: threshold, now: 150, settling: true)
        guard case .ended(let episode, restartPeaks: false) = action else { Issue.record("\(action)"); return }
        #expect(episode.peaks.maxWait == 140)
    }

    /// Its actor released within the quiet period (File Squeezer at the end
    /// of a run): the episode ends at the next look, not two thresholds on.
    @Test func aLookAtAnExecutorThatIsGoneEndsAQuietEpisodeAtOnce() {
        var tracker = ContentionStateMachine()
        #expect(tracker.observe(look(oldest: 120, current: peaks(wait: 0, depth: 1, jobs: 0)), threshold: threshold, now: 120) == .began)
        var gone = look(oldest: 0, current: nil, ended: peaks(wait: 130, depth: 1, jobs: 1))
        gone.executorGone = true
        let action = tracker.observe(gone, threshold: threshold, now: 145)
        guard case .ended(let episode, restartPeaks: false) = action else { Issue.record("\(action)"); return }
        #expect(episode.peaks.maxWait == 130)
        #expect(episode.peaks.jobs == 1)
    }

    @Test func anEpisodeEndingInsideAGoingBacklogRestartsItsPeaks() {
        var tracker = ContentionStateMachine()
        _ = tracker.observe(look(oldest: 120, current: peaks(wait: 0, depth: 3, jobs: 0)), threshold: threshold, now: 120)
        _ = tracker.observe(look(oldest: 30, current: peaks(wait: 140, depth: 3, jobs: 3)), threshold: threshold, now: 150)
        let action = tracker.observe(look(oldest: 30, current: peaks(wait: 140, depth: 3, jobs: 6)), threshold: threshold, now: 150 + quiet)
        guard case .ended(let episode, restartPeaks: true) = action else { Issue.record("\(action)"); return }
        #expect(episode.peaks.maxWait == 140)
        #expect(episode.peaks.jobs == 6)
    }

    @Test func aHolderNotCapturedIsAskedForAgainWhileContended() {
        var tracker = ContentionStateMachine()
        _ = tracker.observe(look(oldest: 120, current: peaks(wait: 0, depth: 3, jobs: 3)), threshold: threshold, now: 120)
        tracker.holderCaptured([], thread: 7)
        #expect(tracker.observe(look(oldest: 140, current: peaks(wait: 0, depth: 3, jobs: 3)), threshold: threshold, now: 140) == .continuing(needsHolder: true))
        #expect(tracker.observe(look(oldest: 10, current: peaks(wait: 0, depth: 3, jobs: 3)), threshold: threshold, now: 160) == .continuing(needsHolder: false))
    }

    @Test func aLongWaitThatEndedBetweenTwoLooksIsReportedWithoutAHolder() throws {
        var tracker = ContentionStateMachine()
        let missed = look(oldest: 0, current: nil, ended: peaks(since: 10, wait: 130, depth: 2, jobs: 2))
        #expect(tracker.observe(missed, threshold: threshold, now: 200) == .none)
        let end = try #require(ended(&tracker, from: 225, to: 1_000) { _ in look(oldest: 0, current: nil) })
        #expect(end.episode.peaks.maxWait == 130)
        #expect(end.episode.holderStack.isEmpty)
    }

    /// Issue 39 (item 8): a saturated actor gave no report in 40 s, one when the load stopped.
    @Test func aLastingEpisodeIsReportedWhileItLastsAt10sThenEveryMinute() throws {
        var tracker = ContentionStateMachine()
        var ongoing: [UInt64] = []
        let step = 50_000_000 as UInt64  // looks every 50 ms
        var now: UInt64 = 0
        while now < 200 * second {
            now += step
            let backlog = peaks(since: 0, wait: 300_000_000, depth: 32, jobs: Int(now / 5_000_000), waited: now * 31)
            let action = tracker.observe(look(oldest: 300_000_000, current: backlog), threshold: 50_000_000, now: now)
            if case .ongoing(let needsHolder) = action {
                ongoing.append(now)
                #expect(needsHolder, "no stack captured in this test")
                #expect(tracker.episode?.duration(now: now) == now)
                #expect(tracker.episode?.peaks.jobs == Int(now / 5_000_000), "its numbers so far")
            }
            if case .ended = action { Issue.record("ended at \(now)") }
        }
        #expect(ongoing == [10 * second + step, 70 * second + step, 130 * second + step, 190 * second + step])
        // It ends: the ended report covers the whole 200 s.
        let drained = look(oldest: 0, current: nil, ended: peaks(since: 0, wait: 300_000_000, depth: 32, jobs: 40_000, waited: 1))
        let action = tracker.observe(drained, threshold: 50_000_000, now: now + step, settling: true)
        guard case .ended(let episode, restartPeaks: false) = action else { Issue.record("\(action)"); return }
        #expect(episode.peaks.jobs == 40_000)
        #expect(episode.duration(now: now + step) == now + step)
    }

    @Test func theFirstOngoingReportWaitsTenThresholdsWhenThatIsLonger() {
        #expect(ContentionStateMachine.firstOngoing(threshold: 50_000_000) == 10 * second)
        #expect(ContentionStateMachine.firstOngoing(threshold: 2 * second) == 20 * second)
        #expect(ContentionStateMachine.ongoingRepeat(threshold: 2 * second) == 120 * second)
    }
}
