import ConcurrencyToolkit
import Synchronization

/// Collects what the toolkit's `StallDetector` and `ActorContentionDetector`
/// report, instead of letting them print `CONCURRENCY STALL:` and
/// `ACTOR CONTENTION:` blocks on stderr: the process-wide handlers,
/// installed once at launch, as a program of your own would.
///
/// ```swift
/// let watch = StallWatch.start()          // at launch: bootstraps the handler, starts the detector
/// let (report, stalls) = await watch.watching { await squeezer.run(discovery) }
/// StallWatch.stop()
/// ```
///
/// The detector reports each stall once, when it ends, with its whole
/// duration and the blocking threads' stacks. A stall that lasts 10 s is
/// also reported while it lasts: then the ongoing report and the ended one
/// make one ``RunStall``. At most one stall of a kind and priority lasts at
/// a time, so the two pair up by kind and priority.
///
/// Process-wide rather than a `withConcurrencyStallHandler` scope around the
/// run: a report is delivered after its stacks are symbolicated (seconds
/// under a sanitizer), so one seen at the very end of the run can arrive after
/// the run; with a scope it would then go to stderr.
final class StallWatch: Sendable {
    private struct State {
        var stalls: [RunStall] = []
        /// Index in `stalls` of the stall still lasting, by kind and priority.
        var lasting: [String: Int] = [:]
        var contentions: [RunContention] = []
    }

    private let state = Mutex(State())

    /// Makes a watch the process-wide stall and actor contention handler and
    /// starts both detectors, at the stall detector's threshold. Once per
    /// process (the handlers' bootstraps are).
    static func start() -> StallWatch {
        let watch = StallWatch()
        ConcurrencyStallHandler.bootstrap(.custom { watch.add($0) })
        ActorContentionHandler.bootstrap(.custom { watch.add($0) })
        StallDetector.start()
        ActorContentionDetector.start(threshold: StallDetector.defaultThreshold)
        return watch
    }

    /// Stops both detectors.
    static func stop() {
        StallDetector.stop()
        ActorContentionDetector.stop()
    }

    /// Runs `operation`, then waits for the stall and actor contention
    /// reports that are due, side by side, up to `reports` (both waits end
    /// as soon as the reports are delivered, at once when none is due), and,
    /// if a stall still lasts, up to `settle` for its end to be reported.
    /// Returns the operation's result and every stall so far, in the order
    /// they began.
    ///
    /// The contention wait ends as soon as the reports arrive: an episode
    /// ends at the detector's next look after the run (its actor's queue is
    /// empty then), and its report comes once the holder's stack is
    /// symbolicated, which the first time takes up to a second (longer under
    /// a sanitizer). A report later than `reports` misses the summary.
    func watching<Result>(
        reports: Duration = .seconds(5),
        settle: Duration = StallDetector.defaultThreshold + StallDetector.defaultProbeInterval * 4,
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async -> Result
    ) async -> (Result, [RunStall]) {
        let result = await operation()
        async let contentions = ActorContentionDetector.waitForReports(within: reports)
        await StallDetector.waitForEndedReports(within: reports)
        _ = await contentions
        await waitUntilNoneLasts(for: settle)
        return (result, stalls)
    }

    var stalls: [RunStall] { state.withLock { $0.stalls } }

    /// The actor contention episodes so far, in the order they ended.
    var contentions: [RunContention] { state.withLock { $0.contentions } }

    /// Takes one contention report (on the detector's thread). An ongoing
    /// report (an episode past 10 s) is left out: its ended report follows
    /// and covers the whole episode.
    func add(_ contention: ActorContention) {
        guard !contention.isOngoing else { return }
        let entry = RunContention(contention)
        state.withLock { $0.contentions.append(entry) }
    }

    /// Takes one report (on the detector's thread).
    func add(_ stall: ConcurrencyStall) {
        let entry = RunStall(stall)
        let key = "\(entry.kind) \(entry.priority ?? "")"
        state.withLock { state in
            guard let index = state.lasting[key] else {
                if entry.ongoing { state.lasting[key] = state.stalls.count }
                state.stalls.append(entry)
                return
            }
            guard !entry.ongoing else { return }  // one ongoing report per stall
            state.stalls[index].milliseconds = entry.milliseconds
            state.stalls[index].ongoing = false
            state.lasting[key] = nil
        }
    }

    private func waitUntilNoneLasts(for limit: Duration) async {
        let deadline = ContinuousClock.now + limit
        while state.withLock({ !$0.lasting.isEmpty }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
