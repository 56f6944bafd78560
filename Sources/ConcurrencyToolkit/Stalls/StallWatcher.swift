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
final class StallWatcher: DemandDrivenWorker {
    struct Configuration: Equatable, Sendable {
        /// Nanoseconds a probe may wait before it is a stall.
        var threshold: UInt64
        /// Nanoseconds between two looks.
        var interval: UInt64
        /// The process-wide handler's threshold, when the process started the detector.
        var processThreshold: Duration? = nil
    }

    /// Set by ``StallDemand``'s ``Demands``.
    let configuration: Lock<Versioned<Configuration>>
    let mainProbe = StallProbe()
    /// On Linux each priority has its threads (a Dispatch root queue per
    /// quality of service): blocking every `.high` thread leaves `.medium`
    /// jobs running, and the other way round. So the pool is probed at each.
    /// `.background` is left out: work there is expected to wait.
    static let poolPriorities: [TaskPriority] = [.high, .medium, .low]
    let poolProbes = poolPriorities.map { _ in StallProbe() }
    private let wake = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    /// Looks completed, for ``waitForLooks(_:)``.
    let cycles = Atomic<UInt64>(0)
    /// When the last completed look began reading the probes: an answer
    /// after it is not yet known to the trackers.
    let lastLookRead = Atomic<UInt64>(0)

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
    struct Watched {
        let probe: StallProbe
        let kind: ConcurrencyStall.Kind
        let priority: TaskPriority?
        var tracker: StallStateMachine
        var action = StallStateMachine.Action.none
        /// The threads blamed for its ongoing stall.
        var blamed: [ConcurrencyStall.BlockedThread] = []
        /// Whether its ongoing stall was reported while it lasted (``longStall(threshold:)``).
        var reportedOngoing = false
        /// The blamed threads' run-queue waits while the stall lasts.
        var host = StallHostDelay()
    }

    /// How long a stall lasts before it is reported while it lasts, too:
    /// 10 s, or 10 thresholds if that is longer. Shorter stalls are reported
    /// once, when they end, with their whole length.
    static func longStall(threshold: UInt64) -> UInt64 { max(10_000_000_000, threshold &* 10) }

    /// The stalls not reported ended yet (``publishOngoing(_:)``).
    let ongoing = Lock<[Unreported]>([])

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
        // The pool's priorities' stalls that overlap, and a main-actor stall
        // that only mirrors them, make one report.
        var episode = PoolStallEpisode()
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
            // The blamed threads' run-queue waits, while their stall lasts
            // and once after: what of it the host took.
            for index in watched.indices where watched[index].host.first != nil && !watched[index].host.isClosed {
                let ids = watched[index].blamed.map(\.id)
                watched[index].host.record(StallHostDelay.read(threads: ids, now: MonotonicClock.now))
                if watched[index].tracker.ongoing == nil { watched[index].host.isClosed = true }
            }
            if anyOngoing {
                // Published before the blame: the first symbolication can take
                // seconds (more under a sanitizer, on a loaded machine), and a
                // recording that ends meanwhile must wait for this stall, not
                // miss it.
                publishOngoing(watched)
                capture(&watched, blame)
            }
            let poolLasting = watched.contains { $0.kind == .cooperativePoolBlocked && $0.tracker.isLasting }
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
                        var report = makeReport(of: entry, serial: stall.serial, threads: entry.blamed)
                        report.isOngoing = true
                        deliver(report, waited: now &- stall.since, config)
                    }
                case .reportOngoing:
                    break  // captured above (again, if a pool stall goes on after a blip); reported when it ends
                case .reportEnded(let serial, let waited):
                    ended(&watched[index], serial: serial, waited: waited, into: &episode, poolLasting: poolLasting, config)
                }
            }
            if let merged = episode.close(poolLasting: poolLasting) {
                ConcurrencyStallHandler.deliver(merged, processThreshold: config.processThreshold)
            }
            publishOngoing(watched)
            lastLookRead.store(readAt, ordering: .relaxed)
            cycles.add(1, ordering: .relaxed)
            _ = wake.wait(timeout: .now() + .nanoseconds(Int(clamping: nextLook(watched, config))))
        }
        // A pool stall waiting for its confirming answer is reported as it
        // ended, not lost with the thread.
        let config = configuration.withLock { $0.value }
        for index in watched.indices {
            if case .reportEnded(let serial, let waited) = watched[index].tracker.finish() {
                ended(&watched[index], serial: serial, waited: waited, into: &episode, poolLasting: false, config)
            }
        }
        if let merged = episode.close(poolLasting: false) {
            ConcurrencyStallHandler.deliver(merged, processThreshold: config.processThreshold)
        }
        publishOngoing(watched)
        mainProbe.stop()
        for probe in poolProbes { probe.stop() }
    }

    /// Captures the threads of each stall that just began, and starts
    /// watching their run-queue waits. A pool stall going on after a blip
    /// keeps the threads captured when it began: each thread is captured (a
    /// running one signalled) at most once per stall.
    private func capture(_ watched: inout [Watched], _ blame: StallBlame) {
        func needsCapture(_ entry: Watched) -> Bool {
            if case .reportOngoing = entry.action { entry.blamed.isEmpty } else { false }
        }
        let kinds = Set(watched.filter(needsCapture).map(\.kind))
        guard !kinds.isEmpty else { return }
        let blamed = blame.blockingThreads(for: kinds)
        for index in watched.indices where needsCapture(watched[index]) {
            watched[index].blamed = blamed.threads[watched[index].kind] ?? []
            watched[index].host = StallHostDelay()
            if !watched[index].blamed.isEmpty {
                watched[index].host.record(blamed.waits)
            }
        }
    }

    /// A stall that ended: the main actor's is reported, unless it only
    /// mirrors a pool stall (no main-actor code ran, the pool's threads drain
    /// the main queue, and the pool is stalled); a pool priority's joins the
    /// episode. No threads for a stall not seen while it lasted.
    private func ended(
        _ entry: inout Watched, serial: UInt64, waited: UInt64, into episode: inout PoolStallEpisode, poolLasting: Bool,
        _ config: Configuration
    ) {
        let seen = entry.tracker.ongoing == nil
        let report = makeReport(of: entry, serial: serial, threads: seen ? entry.blamed : [])
        let hostShare = seen ? entry.host.share : nil
        entry.blamed = []
        entry.reportedOngoing = false
        entry.host = StallHostDelay()
        if entry.kind == .cooperativePoolBlocked, let span = entry.tracker.lastEnded {
            episode.add(report, since: span.since, end: span.end, hostShare: hostShare)
        } else if report.threads.isEmpty, poolLasting || episode.isOpen, MainQueue.isDrainedByWorkerThreads {
            episode.foldMainActor(waited: waited)
        } else {
            var report = report
            report.hostDelay = StallHostDelay.delay(share: hostShare, of: waited)
            deliver(report, waited: waited, config)
        }
    }

    private func makeReport(of entry: Watched, serial: UInt64, threads: [ConcurrencyStall.BlockedThread]) -> ConcurrencyStall {
        var stall = ConcurrencyStall(kind: entry.kind, duration: .zero, threads: threads)
        stall.serial = serial
        stall.priority = entry.priority
        return stall
    }

    private func deliver(_ stall: ConcurrencyStall, waited: UInt64, _ config: Configuration) {
        var stall = stall
        stall.duration = .nanoseconds(Int64(clamping: waited))
        ConcurrencyStallHandler.deliver(stall, processThreshold: config.processThreshold)
    }

    /// Nanoseconds to the next look: the interval, or less when a probe on
    /// its way reaches the threshold sooner, so that a stall just above the
    /// threshold is seen, and its threads captured, while it lasts.
    private func nextLook(_ watched: [Watched], _ config: Configuration) -> UInt64 {
        var earliest: UInt64?
        for entry in watched where entry.tracker.ongoing == nil {
            if let pending = entry.probe.status.pendingSince { earliest = min(earliest ?? pending, pending) }
        }
        return Self.nextLook(
            interval: config.interval, threshold: config.threshold, now: MonotonicClock.now, pendingSince: earliest)
    }

    /// The pure part of ``nextLook(_:_:)``: a probe sent at `pendingSince`
    /// is late at `pendingSince + threshold`; look then if that comes first.
    static func nextLook(interval: UInt64, threshold: UInt64, now: UInt64, pendingSince: UInt64?) -> UInt64 {
        guard let pendingSince else { return interval }
        let due = pendingSince &+ threshold
        guard due > now else { return interval }
        return min(interval, due - now)
    }
}
