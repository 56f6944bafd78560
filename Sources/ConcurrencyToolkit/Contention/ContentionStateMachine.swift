/// Turns the watcher's looks at one executor into contention episodes. A
/// pure value: looks and times in, what to report out.
///
/// - An episode begins at the first look that sees a job waiting at least
///   the threshold, or a backlog that did and ended between two looks (a
///   look came late: no holder's stack, nobody saw it).
/// - It ends once no job has waited the threshold for ``quietPeriod(threshold:)``
///   (two thresholds, so the tail of a backlog stays in its episode: see
///   Documentation/FindingActorContention.md); its report covers it up to
///   the first quiet look.
/// - A quiet *settling* look (a program waiting for its due reports), or a
///   look at an executor that is gone, ends it at once: no tail will come.
/// - While it lasts, it is reported as ongoing at ``firstOngoing(threshold:)``
///   and then every ``ongoingRepeat(threshold:)``.
struct ContentionStateMachine {
    struct Episode: Equatable {
        /// The backlogs of the episode that have ended, summed.
        var closed: ContentionPeaks?
        /// The backlog going on, as last seen (its numbers grow from look to look).
        var open: ContentionPeaks?
        /// The holder's raw stack, once captured (symbolicated when reported).
        var holderStack: [UInt] = []
        var holderCaptured = false
        var holderThread: UInt64 = 0
        /// The first look of the quiet period going on (no job waiting the threshold); nil while contended.
        var quietSince: UInt64?
        /// When to report it as ongoing next.
        var nextOngoing: UInt64 = .max

        /// The whole episode's peaks.
        var peaks: ContentionPeaks {
            switch (closed, open) {
            case (let closed?, let open?): closed.merged(with: open)
            case (let closed?, nil): closed
            case (nil, let open?): open
            case (nil, nil): ContentionPeaks(since: 0, maxWait: 0, maxDepth: 0, jobs: 0, waitingTime: 0)
            }
        }

        /// How long it lasted: from its first job's enqueue to the first look
        /// of its final quiet period (or `now`, while it goes on).
        func duration(now: UInt64) -> UInt64 {
            let end = quietSince ?? now
            let since = peaks.since
            return end > since ? end - since : 0
        }

        /// Folds one look in. The backlogs that ended since the last look
        /// begin with the one that was open then (it was going on at that
        /// look; the others began after it ended), and their sum counts it
        /// whole, so it replaces it.
        mutating func fold(_ look: ContentionObservation) {
            if var ended = look.ended {
                ended.maxWait = max(ended.maxWait, open?.maxWait ?? 0)
                closed = closed.map { $0.merged(with: ended) } ?? ended
                open = nil
            }
            if var current = look.current {
                current.maxWait = max(current.maxWait, look.oldestWait)
                if let open, open.since == current.since { current.maxWait = max(current.maxWait, open.maxWait) }
                open = current
            }
        }
    }

    enum Action: Equatable {
        case none
        /// An episode began with a backlog going on: capture the holder's stack.
        case began
        /// It goes on; `needsHolder`: contended and no stack captured yet, try again.
        case continuing(needsHolder: Bool)
        /// It has lasted long: report ``episode`` as ongoing (capture the holder first if `needsHolder`).
        case ongoing(needsHolder: Bool)
        /// Report this episode, ended; `restartPeaks`: the backlog goes on, so start new peaks for it.
        case ended(Episode, restartPeaks: Bool)
    }

    /// How long no job may wait the threshold before an episode ends.
    static func quietPeriod(threshold: UInt64) -> UInt64 { threshold &* 2 }
    /// When a lasting episode is first reported as ongoing: 10 s, or 10 thresholds if that is longer (as a stall).
    static func firstOngoing(threshold: UInt64) -> UInt64 { max(10_000_000_000, threshold &* 10) }
    /// Then every minute (or 60 thresholds): a metrics interval, and few lines for an actor saturated for hours.
    static func ongoingRepeat(threshold: UInt64) -> UInt64 { max(60_000_000_000, threshold &* 60) }

    private(set) var episode: Episode?

    /// - Parameter settling: end a quiet episode at once (see the type's comment).
    mutating func observe(_ look: ContentionObservation, threshold: UInt64, now: UInt64, settling: Bool = false) -> Action {
        let isNew = episode == nil
        var look = look
        if isNew, let ended = look.ended, ended.maxWait < threshold { look.ended = nil }  // an old short backlog
        let currentCrossed = look.current.map { max($0.maxWait, look.oldestWait) >= threshold } ?? false
        guard !isNew || currentCrossed || look.ended != nil else { return .none }
        var episode = self.episode ?? Episode()
        // Contended since the last look: a job waits the threshold now, or
        // one that did started (a longer wait than this episode had seen).
        let endedLonger = look.ended.map { $0.maxWait >= threshold && $0.maxWait > (episode.open?.maxWait ?? 0) } ?? false
        let hot = look.oldestWait >= threshold || endedLonger || (isNew && currentCrossed)
        episode.fold(look)
        // Counted from the first look that saw it: a long backlog may have
        // begun well before its waits crossed the threshold.
        if isNew { episode.nextOngoing = now &+ Self.firstOngoing(threshold: threshold) }
        if hot {
            episode.quietSince = nil
        } else if episode.quietSince == nil {
            episode.quietSince = now
        }
        let quietLongEnough = episode.quietSince.map { now &- $0 >= Self.quietPeriod(threshold: threshold) } ?? false
        if quietLongEnough || ((settling || look.executorGone) && look.oldestWait < threshold) {
            if episode.quietSince == nil { episode.quietSince = now }
            self.episode = nil
            return .ended(episode, restartPeaks: look.current != nil)
        }
        let needsHolder = look.oldestWait >= threshold && !episode.holderCaptured
        if now >= episode.nextOngoing {
            episode.nextOngoing = now &+ Self.ongoingRepeat(threshold: threshold)
            self.episode = episode
            return .ongoing(needsHolder: needsHolder)
        }
        self.episode = episode
        if isNew { return currentCrossed ? .began : .none }
        return .continuing(needsHolder: needsHolder)
    }

    /// Records the holder's stack for the episode going on.
    mutating func holderCaptured(_ stack: [UInt], thread: UInt64) {
        episode?.holderThread = thread
        guard !stack.isEmpty else { return }  // try again at the next look
        episode?.holderStack = stack
        episode?.holderCaptured = true
    }
}
