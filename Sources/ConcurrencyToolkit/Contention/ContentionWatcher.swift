#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// The contention detector's thread: a plain pthread (so a saturated pool
/// cannot delay it) that runs only while someone wants contention watched
/// (``ContentionDemand``). Every interval it looks at every live
/// ``MonitoredActorExecutor`` (a lock each, a heap scan only when a backlog
/// is older than the threshold), turns the looks into episodes
/// (``ContentionStateMachine``), captures the holding job's stack when an
/// episode begins (``HolderStack``), and delivers an ``ActorContention``
/// when an episode ends, and while a long one lasts (symbolicated on a queue
/// of its own, so no look waits for it). An executor whose actor is released
/// during an episode is kept until the next look, which ends and reports it.
final class ContentionWatcher: DemandDrivenWorker {
    struct Configuration: Equatable, Sendable {
        /// Nanoseconds a job may wait before its actor is contended.
        var threshold: UInt64
        /// Nanoseconds between two looks.
        var interval: UInt64
        /// The process-wide handler's threshold, when the process started the detector.
        var processThreshold: Duration? = nil
    }

    /// Set by ``ContentionDemand``'s ``Demands``.
    let configuration: Lock<Versioned<Configuration>>
    private let wake = DispatchSemaphore(value: 0)
    private let stopping = Atomic<Bool>(false)
    /// Looks completed, for ``waitForLooks(_:)``.
    let looks = Atomic<UInt64>(0)
    /// Looks up to this number *settle*: someone waits for the due reports,
    /// so an episode quiet now ends at once instead of after its quiet period.
    let settleThrough = Atomic<UInt64>(0)

    init(configuration: Configuration) {
        self.configuration = Lock(Versioned(configuration))
    }

    func start() {
        spawnDetachedThread(named: "ActorContentionDetector") { [self] in run() }
    }

    /// Asks the thread to end (within one look). Episodes going on are not reported.
    func stop() {
        stopping.store(true, ordering: .relaxed)
        wake.signal()
    }

    /// Wakes the thread for a look now (after a configuration change).
    func poke() { wake.signal() }

    private func run() {
        let holder = HolderStack()
        var trackers: [ObjectIdentifier: ContentionStateMachine] = [:]
        // The executors with an episode going on, held until it ends: one
        // whose actor is released would otherwise leave the registry with
        // its episode unreported (File Squeezer's, at the end of a run).
        var held: [ObjectIdentifier: MonitoredExecutorCore] = [:]
        while !stopping.load(ordering: .relaxed) {
            let config = configuration.withLock { $0.value }
            let settling = looks.load(ordering: .relaxed) < settleThrough.load(ordering: .relaxed)
            let cores = ContentionRegistry.shared.live()
            var seen = Set<ObjectIdentifier>()
            for core in cores {
                let id = ObjectIdentifier(core)
                seen.insert(id)
                var tracker = trackers[id] ?? ContentionStateMachine()
                look(at: core, tracker: &tracker, holder: holder, settling: settling, config)
                trackers[id] = tracker
                held[id] = tracker.episode == nil ? nil : core
            }
            trackers = trackers.filter { seen.contains($0.key) }
            // Releasing: a waiter that reads the count (acquiring) sees this
            // look's deliveries already queued ahead of its own.
            looks.add(1, ordering: .releasing)
            _ = wake.wait(timeout: .now() + .nanoseconds(Int(clamping: config.interval)))
        }
    }

    private func look(
        at core: MonitoredExecutorCore, tracker: inout ContentionStateMachine, holder: HolderStack,
        settling: Bool, _ config: Configuration
    ) {
        let now = MonotonicClock.now
        let observation = core.state.withLock { $0.observe(now: now, threshold: config.threshold) }
        switch tracker.observe(observation, threshold: config.threshold, now: now, settling: settling) {
        case .none, .continuing(needsHolder: false):
            break
        case .began, .continuing(needsHolder: true):
            captureHolder(of: core, observation, tracker: &tracker, holder: holder)
        case .ongoing(let needsHolder):
            if needsHolder { captureHolder(of: core, observation, tracker: &tracker, holder: holder) }
            if let episode = tracker.episode {
                deliver(episode, ongoing: true, label: core.label, holder: holder, now: now, config)
            }
        case .ended(let episode, let restartPeaks):
            if restartPeaks { core.state.withLock { $0.restartPeaks(now: now) } }
            deliver(episode, ongoing: false, label: core.label, holder: holder, now: now, config)
        }
    }

    /// Captures the holder's stack, and keeps it only if that thread still
    /// runs the same job of this actor afterwards: a capture spanning two jobs
    /// may have caught the runner between them, in the toolkit's code. A
    /// dropped capture is tried again at the next look.
    private func captureHolder(
        of core: MonitoredExecutorCore, _ observation: ContentionObservation,
        tracker: inout ContentionStateMachine, holder: HolderStack
    ) {
        guard observation.holderThread != 0 else { return }
        let raw = holder.capture(thread: observation.holderThread) ?? []
        // Symbolicated only when reported: the first symbolication takes a
        // second, and meanwhile no other executor would be looked at.
        let stillHolds = core.state.withLock { $0.isHolder(observation.holderThread, serial: observation.holderSerial) }
        tracker.holderCaptured(stillHolds ? raw : [], thread: observation.holderThread)
    }

    /// Symbolicates and delivers on ``deliveries``, so the watcher's looks
    /// never wait for a symbolication (the first takes a second) or a handler.
    private func deliver(
        _ episode: ContentionStateMachine.Episode, ongoing: Bool, label: String, holder: HolderStack, now: UInt64,
        _ config: Configuration
    ) {
        let peaks = episode.peaks
        let duration = Duration.nanoseconds(Int64(clamping: episode.duration(now: now)))
        Self.deliveries.async {
            let report = ActorContention(
                label: label, longestWait: .nanoseconds(Int64(clamping: peaks.maxWait)), maxQueueDepth: peaks.maxDepth,
                jobs: peaks.jobs, contention: .nanoseconds(Int64(clamping: peaks.waitingTime)), duration: duration,
                holderBacktrace: episode.holderStack.isEmpty ? [] : holder.symbolicate(episode.holderStack),
                holderThread: episode.holderThread, isOngoing: ongoing)
            ActorContentionHandler.deliver(report, processThreshold: config.processThreshold)
        }
    }

    /// Where reports are symbolicated and handed to the handlers, in order.
    static let deliveries = DispatchQueue(label: "ConcurrencyToolkit.ActorContentionDetector.deliveries")
}

extension ContentionWatcher {
    /// Returns after the watcher has looked `count` more times (or 5 s)
    /// and the reports of those looks were delivered. Those looks settle:
    /// an episode quiet now ends at once.
    func waitForLooks(_ count: UInt64) async {
        let target = looks.load(ordering: .acquiring) + count + 1
        settleThrough.max(target, ordering: .relaxed)
        _ = await poll(every: .milliseconds(2), within: .seconds(5)) { looks.load(ordering: .acquiring) >= target }
        if Task.isCancelled { return }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Self.deliveries.async { done.resume() }
        }
    }
}
