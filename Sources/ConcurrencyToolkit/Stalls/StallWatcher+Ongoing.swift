extension StallWatcher {
    /// A stall not reported ended yet: lasting (`endedAt` nil; its length
    /// so far is computed when asked), or a pool stall waiting for the
    /// prompt answer that ends it (``StallStateMachine``).
    struct Unreported {
        var stall: ConcurrencyStall
        var since: UInt64
        var endedAt: UInt64?
    }

    /// Keeps what ``ongoingStalls()`` returns; allocates only while a stall lasts.
    func publishOngoing(_ watched: [Watched]) {
        let lasting = watched.contains { $0.tracker.ongoing != nil || $0.tracker.ending != nil }
        if !lasting {
            ongoing.withLock { if !$0.isEmpty { $0 = [] } }
            return
        }
        var list: [Unreported] = []
        for entry in watched {
            let found: (serial: UInt64, since: UInt64, endedAt: UInt64?)
            if let stall = entry.tracker.ongoing {
                found = (stall.serial, stall.since, nil)
            } else if let stall = entry.tracker.ending {
                found = (stall.serial, stall.since, stall.lastAnswer)
            } else {
                continue
            }
            var report = ConcurrencyStall(kind: entry.kind, duration: .zero, isOngoing: found.endedAt == nil, threads: entry.blamed)
            report.serial = found.serial
            report.priority = entry.priority
            list.append(Unreported(stall: report, since: found.since, endedAt: found.endedAt))
        }
        ongoing.withLock { $0 = list }
    }

    /// The stalls not reported ended yet, each with its length so far
    /// (`isOngoing` is `true`), or its whole length if it already ended and
    /// waits for the probe that confirms it: what a recording that ends
    /// during a stall, or the process's exit, reports.
    func ongoingStalls() -> [ConcurrencyStall] {
        let now = MonotonicClock.now
        return ongoing.withLock { $0 }.map { entry in
            var stall = entry.stall
            stall.duration = .nanoseconds(Int64(clamping: (entry.endedAt ?? now) &- entry.since))
            return stall
        }
    }
}
