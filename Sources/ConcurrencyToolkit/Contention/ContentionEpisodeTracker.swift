/// Turns the watcher's looks at one executor into contention episodes: an
/// episode begins at the first look that sees a job waiting at least the
/// threshold and ends at the first look that sees none; it is reported once,
/// when it ends, with the peaks of the backlog it lay in. A pure value.
///
/// ```swift
/// // snippet: skip (internal: the watcher's loop)
/// var tracker = ContentionEpisodeTracker()
/// switch tracker.observe(look, threshold: 100_000_000, now: now) {
/// case .began: captureHolder()
/// case .ended(let episode), .missed(let episode): report(episode)
/// case .none, .continuing: break
/// }
/// ```
///
/// A backlog that waited past the threshold and ended between two looks
/// (a look came late) is reported as `.missed`: with its numbers, without
/// the holder's stack, which nobody saw.
struct ContentionEpisodeTracker {
    struct Episode: Equatable {
        var startedAt: UInt64
        /// The backlogs of the episode that have ended, summed.
        var closed: ContentionPeaks?
        /// The backlog going on, as last seen (its numbers grow from look to look).
        var open: ContentionPeaks?
        /// The holder's raw stack, once captured (symbolicated when reported).
        var holderStack: [UInt] = []
        var holderCaptured = false
        var holderThread: UInt64 = 0

        /// The whole episode's peaks.
        var peaks: ContentionPeaks {
            switch (closed, open) {
            case (let closed?, let open?): closed.merged(with: open)
            case (let closed?, nil): closed
            case (nil, let open?): open
            case (nil, nil): ContentionPeaks(since: startedAt, maxWait: 0, maxDepth: 0, jobs: 0, waitingTime: 0)
            }
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
        /// An episode began: capture the holder's stack.
        case began
        /// It goes on; `needsHolder`: no stack captured yet, try again.
        case continuing(needsHolder: Bool)
        /// Report this episode; `restartPeaks`: the backlog goes on, so start new peaks for it.
        case ended(Episode, restartPeaks: Bool)
        case missed(Episode)
    }

    private(set) var episode: Episode?

    mutating func observe(_ look: ContentionObservation, threshold: UInt64, now: UInt64) -> Action {
        if var episode {
            episode.fold(look)
            if look.oldestWait >= threshold {
                self.episode = episode
                return .continuing(needsHolder: !episode.holderCaptured)
            }
            self.episode = nil
            return .ended(episode, restartPeaks: look.current != nil)
        }
        var missed: Episode?
        if let ended = look.ended, ended.maxWait >= threshold {
            missed = Episode(startedAt: ended.since, closed: ended)
        }
        if var current = look.current {
            current.maxWait = max(current.maxWait, look.oldestWait)
            if current.maxWait >= threshold {
                episode = Episode(startedAt: now, open: current)
                // Two episodes since the last look: the first one ended unseen.
                return missed.map { .missed($0) } ?? .began
            }
        }
        return missed.map { .missed($0) } ?? .none
    }

    /// Records the holder's stack for the episode going on.
    mutating func holderCaptured(_ stack: [UInt], thread: UInt64) {
        episode?.holderThread = thread
        guard !stack.isEmpty else { return }  // try again at the next look
        episode?.holderStack = stack
        episode?.holderCaptured = true
    }
}
