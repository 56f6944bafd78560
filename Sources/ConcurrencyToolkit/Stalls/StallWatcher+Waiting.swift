extension StallWatcher {
    /// Whether a stall may still be reported: one lasting or waiting for its
    /// confirming probe, a probe on its way for the threshold or longer, or
    /// a late answer the last look did not see. False in the usual case, so
    /// ``StallDetector/waitForEndedReports(within:)`` returns at once.
    func mayHaveUnreportedStall() -> Bool {
        guard ongoing.withLock({ $0.isEmpty }) else { return true }
        let threshold = configuration.withLock { $0.value.threshold }
        let now = MonotonicClock.now
        let seenUntil = lastLookRead.load(ordering: .relaxed)
        for probe in [mainProbe] + poolProbes {
            let status = probe.status
            if let pending = status.pendingSince, now > pending, now &- pending >= threshold { return true }
            if let answered = status.answered, answered.ranAt &- answered.sentAt >= threshold, answered.ranAt >= seenUntil {
                return true
            }
        }
        return false
    }

    /// Returns once the pool probe has answered, and the main probe too (or
    /// after 2 s without it: a process that never drains the main queue).
    func waitUntilProbesRun() async {
        _ = await poll(every: .milliseconds(5), within: .seconds(2)) { poolAnswered && mainAnswered }
    }

    /// Returns once no stall lasts (its ended report delivered), or after `limit`.
    func waitUntilNoStallLasts(within limit: Duration) async {
        _ = await poll(every: .milliseconds(5), within: limit) { ongoing.withLock { $0.isEmpty } }
    }

    /// Returns after the watchdog has looked `count` more times (or 5 s).
    func waitForLooks(_ count: UInt64) async {
        let target = cycles.load(ordering: .relaxed) + count + 1
        _ = await poll(every: .milliseconds(5), within: .seconds(5)) { cycles.load(ordering: .relaxed) >= target }
    }
}
