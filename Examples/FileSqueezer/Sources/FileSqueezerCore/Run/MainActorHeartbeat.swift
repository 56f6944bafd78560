/// Measures how long the main actor was unable to run anything.
///
/// ```swift
/// let heartbeat = MainActorHeartbeat()
/// heartbeat.start()
/// await compressEverything()
/// print("longest main-actor stall: \(heartbeat.stop())")
/// ```
///
/// A main-actor task wakes every `interval`; any extra delay before it runs
/// is time the main actor spent on something else — a frozen display. The
/// wake-up takes the ordinary way back to the main actor, through the
/// cooperative pool (`Task.sleep` is nonisolated), so a starved pool shows
/// up as a stall too, as it does on screen: the display's updates take that
/// way as well.
///
/// **Resolution.** A stall of length `L` is reported as at least
/// `L − interval` and at most `L` (plus scheduling noise); one shorter than
/// `interval` may not be seen at all. The default, 16 ms, is one frame at
/// 60 Hz and half the display's 33 ms redraw interval: a shorter stall
/// cannot hold back a redraw the eye would miss.
///
/// **Cost.** Every beat wakes several threads (a pool thread to start the
/// sleep and again to end it, Dispatch's timer thread, the main thread), and
/// when every core is compressing, each wake-up preempts deflate, so the
/// interval is no shorter than the display needs (the cost per interval is
/// in Documentation/Performance.md, "Why the code is as it is").
@MainActor
final class MainActorHeartbeat {
    static let defaultInterval = Duration.milliseconds(16)

    let interval: Duration
    private var task: Task<Void, Never>?
    private var last = ContinuousClock.now
    private var longest = Duration.zero

    init(interval: Duration = defaultInterval) { self.interval = interval }

    func start() {
        last = .now
        task = Task { @MainActor [weak self] in
            while !Task.isCancelled {
                // Beat first: the wait for this task's first turn on the
                // main actor is a stall too (stage 1 blocks it from the start).
                self?.beat()
                try? await Task.sleep(for: self?.interval ?? .zero)
            }
        }
    }

    private func beat() {
        let now = ContinuousClock.now
        longest = max(longest, now - last - interval)
        last = now
    }

    /// Stops and returns the longest stall, including one still under way
    /// (a run that blocked the main actor to its end has had no beat since).
    func stop() -> Duration {
        beat()
        task?.cancel()
        task = nil
        return longest
    }
}
