/// Measures how long the main actor was unable to run anything.
///
/// A main-actor task wakes every `interval`; any extra delay before it runs
/// is time the main actor spent on something else — a frozen display.
@MainActor
final class MainActorHeartbeat {
    private let interval: Duration
    private var task: Task<Void, Never>?
    private var last = ContinuousClock.now
    private var longest = Duration.zero

    init(interval: Duration = .milliseconds(5)) { self.interval = interval }

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
