/// One stall of the cooperative pool, however many of its priorities it
/// stalled: the pure part that merges what the per-priority trackers
/// (``StallStateMachine``) report into one report, and folds in a
/// main-actor stall that only mirrors it. No clock, no threads.
///
/// - One block of the pool can make several priorities late: a priority's
///   ended stall is held until no priority stalls, then one report goes out,
///   from the earliest start to the latest end, with the priority stalled longest.
/// - After an async `main` the pool's threads drain the main queue, so a
///   main-actor stall ending while the pool stall lasts becomes its
///   `mainActorDelay`, not a report of its own.
struct PoolStallEpisode {
    /// The longest part so far, with the threads of every part.
    private(set) var report: ConcurrencyStall?
    private var since: UInt64 = 0
    private var end: UInt64 = 0
    private var longest: UInt64 = 0
    private var hostShare: Double?
    private var mainActorWaited: UInt64?

    var isOpen: Bool { report != nil }

    /// A priority's stall that ended (`since` and `end` in nanoseconds):
    /// held until ``close(poolLasting:)`` finds no priority stalling.
    mutating func add(_ part: ConcurrencyStall, since: UInt64, end: UInt64, hostShare: Double?) {
        let length = end &- since
        guard var merged = report else {
            report = part
            (self.since, self.end, longest, self.hostShare) = (since, end, length, hostShare)
            return
        }
        let known = Set(merged.threads.map(\.id))
        merged.threads += part.threads.filter { !known.contains($0.id) }
        if length > longest {
            longest = length
            merged.priority = part.priority
            if hostShare != nil { self.hostShare = hostShare }
        }
        if self.hostShare == nil { self.hostShare = hostShare }
        self.since = min(self.since, since)
        self.end = max(self.end, end)
        report = merged
    }

    /// A main-actor stall of `waited` nanoseconds that only mirrors this
    /// one. A long block can hold the main actor up several times (a pool
    /// thread free for a moment drains it once): their sum is reported.
    mutating func foldMainActor(waited: UInt64) {
        mainActorWaited = (mainActorWaited ?? 0) &+ waited
    }

    /// After a look: the one report of the episode once no priority stalls
    /// (`poolLasting` false), else nil and the episode goes on.
    mutating func close(poolLasting: Bool) -> ConcurrencyStall? {
        guard !poolLasting, var merged = report else { return nil }
        let duration = end &- since
        merged.duration = .nanoseconds(Int64(clamping: duration))
        merged.hostDelay = StallHostDelay.delay(share: hostShare, of: duration)
        // A main-actor stall can begin before the pool's probe is sent: only its part inside counts.
        merged.mainActorDelay = mainActorWaited.map { .nanoseconds(Int64(clamping: min($0, duration))) }
        self = PoolStallEpisode()
        return merged
    }
}
