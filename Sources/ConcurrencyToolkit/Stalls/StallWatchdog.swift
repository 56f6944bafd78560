#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// The detector's thread: a plain pthread, outside the cooperative pool (so
/// a blocked pool cannot block it), that every probe interval sends a probe
/// to the main actor and one to the pool at each of the priorities
/// ``poolPriorities``, turns late probes into stall
/// reports (``StallStateMachine``), blames the blocking threads
/// (``StallBlame``) and delivers the reports (``ConcurrencyStallHandler``).
///
/// ```swift
/// let watchdog = StallWatchdog(configuration: .init(threshold: 250_000_000, interval: 100_000_000))
/// watchdog.start()
/// watchdog.stop()
/// ```
final class StallWatchdog: DemandDrivenWorker {
    struct Configuration: Equatable, Sendable {
        /// Nanoseconds a probe may wait before it is a stall.
        var threshold: UInt64
        /// Nanoseconds between two looks.
        var interval: UInt64
        /// The process-wide handler's threshold, when the process started the detector.
        var processThreshold: Duration? = nil
    }

    /// Set by ``StallMonitor``'s ``Demands``.
    let configuration: Lock<Versioned<Configuration>>
    private let mainProbe = StallProbe()
    /// On Linux each priority has its threads (a Dispatch root queue per
    /// quality of service): blocking every `.high` thread leaves `.medium`
    /// jobs running, and the other way round. So the pool is probed at each.
    /// `.background` is left out: work there is expected to wait.
    static let poolPriorities: [TaskPriority] = [.high, .medium, .low]
    private let poolProbes = poolPriorities.map { _ in StallProbe() }
    private let wake = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    /// Looks completed, for ``waitForLooks(_:)``.
    let cycles = Atomic<UInt64>(0)
    /// When the last completed look began reading the probes: an answer
    /// after it is not yet known to the trackers.
    private let lastLookRead = Atomic<UInt64>(0)

    init(configuration: Configuration) {
        self.configuration = Lock(Versioned(configuration))
    }

    func start() {
        let mainProbe = mainProbe
        // The main probe answers only once the main actor runs it: a process
        // whose main thread never drains the main queue has no main-actor stalls.
        Task { @MainActor in await mainProbe.serve(isolation: MainActor.shared) }
        for (probe, priority) in zip(poolProbes, Self.poolPriorities) {
            Task.detached(priority: priority) { await probe.serve(isolation: nil) }
        }
        spawnDetachedThread(named: "StallDetector") { [self] in run() }
    }

    /// Asks the thread to end (within one look) and ends the probe tasks.
    func stop() {
        stopping.store(true, ordering: .relaxed)
        wake.signal()
    }

    var mainAnswered: Bool { mainProbe.status.answered != nil }
    var poolAnswered: Bool { poolProbes.allSatisfy { $0.status.answered != nil } }

    /// Wakes the thread for a look now (after a configuration change).
    func poke() { wake.signal() }

    /// A probe, what it watches, and what the watchdog remembers about it.
    private struct Watched {
        let probe: StallProbe
        let kind: ConcurrencyStall.Kind
        let priority: TaskPriority?
        var tracker: StallStateMachine
        var action = StallStateMachine.Action.none
        /// The threads blamed for its ongoing stall.
        var blamed: [ConcurrencyStall.BlockedThread] = []
        /// Whether its ongoing stall was reported while it lasted (``longStall(threshold:)``).
        var reportedOngoing = false
    }

    /// How long a stall lasts before it is reported while it lasts, too:
    /// 10 s, or 10 thresholds if that is longer. Shorter stalls are reported
    /// once, when they end, with their whole length.
    static func longStall(threshold: UInt64) -> UInt64 { max(10_000_000_000, threshold &* 10) }

    /// A stall not reported ended yet: lasting (`endedAt` nil; its length
    /// so far is computed when asked), or a pool stall waiting for the
    /// prompt answer that ends it (``StallStateMachine``).
    private struct Unreported {
        var stall: ConcurrencyStall
        var since: UInt64
        var endedAt: UInt64?
    }

    private let ongoing = Lock<[Unreported]>([])

    /// Keeps what ``ongoingStalls()`` returns; allocates only while a stall lasts.
    private func publishOngoing(_ watched: [Watched]) {
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

    /// Counts the main probe's task as a probe sent now (see ``StallProbe/arm(now:)``).
    /// Call on the main actor: the calling thread is the main actor's.
    func armMainProbe() { mainProbe.arm(now: MonotonicClock.now) }

    private func run() {
        let blame = StallBlame()
        var watched = [Watched(probe: mainProbe, kind: .mainActorBlocked, priority: nil, tracker: StallStateMachine())]
        for (probe, priority) in zip(poolProbes, Self.poolPriorities) {
            // A pool stall ends at a prompt answer: Dispatch may start a
            // thread mid-block that lets one probe through.
            let tracker = StallStateMachine(endsOnPromptAnswer: true)
            watched.append(Watched(probe: probe, kind: .cooperativePoolBlocked, priority: priority, tracker: tracker))
        }
        // A look allocates nothing unless it reports: fixed arrays, indices.
        while !stopping.load(ordering: .relaxed) {
            let config = configuration.withLock { $0.value }
            let readAt = MonotonicClock.now
            // Every probe is looked at before anything slow (blaming), so no
            // look is delayed by another's.
            var anyOngoing = false
            for index in watched.indices {
                let status = watched[index].probe.status
                let action = watched[index].tracker.observe(
                    pendingSince: status.pendingSince, answered: status.answered,
                    now: MonotonicClock.now, threshold: config.threshold)
                watched[index].action = action
                if case .reportOngoing = action { anyOngoing = true }
                // Only after a look that saw no probe on its way: a probe
                // answered later must be seen by the next look before
                // another probe replaces its answer.
                if status.pendingSince == nil { _ = watched[index].probe.send(now: MonotonicClock.now) }
            }
            if anyOngoing {
                // Published before the blame: the first symbolication can take
                // seconds (more under a sanitizer, on a loaded machine), and a
                // recording that ends meanwhile must wait for this stall, not
                // miss it.
                publishOngoing(watched)
                // A pool stall going on after a blip keeps the threads captured
                // when it began: each thread is captured (a running one
                // signalled) at most once per stall.
                func needsCapture(_ entry: Watched) -> Bool {
                    if case .reportOngoing = entry.action { entry.blamed.isEmpty } else { false }
                }
                let kinds = Set(watched.filter(needsCapture).map(\.kind))
                if !kinds.isEmpty {
                    let threads = blame.blockingThreads(for: kinds)
                    for index in watched.indices where needsCapture(watched[index]) {
                        watched[index].blamed = threads[watched[index].kind] ?? []
                    }
                }
            }
            let now = MonotonicClock.now
            for index in watched.indices {
                let entry = watched[index]
                switch entry.action {
                case .none:
                    // A stall that lasts and lasts (a deadlock) is reported while it lasts, once.
                    if let stall = entry.tracker.ongoing, !entry.reportedOngoing,
                        now &- stall.since >= Self.longStall(threshold: config.threshold)
                    {
                        watched[index].reportedOngoing = true
                        report(entry.kind, entry.priority, serial: stall.serial, waited: now &- stall.since, ongoing: true, threads: entry.blamed, config)
                    }
                case .reportOngoing:
                    break  // captured above (again, if a pool stall goes on after a blip); reported when it ends
                case .reportEnded(let serial, let waited):
                    // No threads for a stall not seen while it lasted.
                    let threads = entry.tracker.ongoing == nil ? entry.blamed : []
                    watched[index].blamed = []
                    watched[index].reportedOngoing = false
                    report(entry.kind, entry.priority, serial: serial, waited: waited, ongoing: false, threads: threads, config)
                }
            }
            publishOngoing(watched)
            lastLookRead.store(readAt, ordering: .relaxed)
            cycles.add(1, ordering: .relaxed)
            _ = wake.wait(timeout: .now() + .nanoseconds(Int(clamping: config.interval)))
        }
        // A pool stall waiting for its confirming answer is reported as it
        // ended, not lost with the thread.
        let config = configuration.withLock { $0.value }
        for index in watched.indices {
            if case .reportEnded(let serial, let waited) = watched[index].tracker.finish() {
                let entry = watched[index]
                report(entry.kind, entry.priority, serial: serial, waited: waited, ongoing: false, threads: entry.blamed, config)
            }
        }
        publishOngoing(watched)
        mainProbe.stop()
        for probe in poolProbes { probe.stop() }
    }

    private func report(
        _ kind: ConcurrencyStall.Kind, _ priority: TaskPriority?, serial: UInt64, waited: UInt64, ongoing: Bool,
        threads: [ConcurrencyStall.BlockedThread], _ config: Configuration
    ) {
        var stall = ConcurrencyStall(
            kind: kind, duration: .nanoseconds(Int64(clamping: waited)), isOngoing: ongoing, threads: threads)
        stall.serial = serial
        stall.priority = priority
        ConcurrencyStallHandler.deliver(stall, processThreshold: config.processThreshold)
    }
}

extension StallWatchdog {
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
