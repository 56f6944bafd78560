/// Checks `condition` every `interval` until it holds, for at most `limit`,
/// and gives up at once if the calling task is cancelled: the one polling
/// loop behind the detectors' waits (for their threads' looks, for probes,
/// for reports). Returns whether the condition held.
func poll(every interval: Duration, within limit: Duration, until condition: () -> Bool) async -> Bool {
    let start = MonotonicClock.now
    let nanoseconds = MonotonicClock.nanoseconds(limit)
    while !condition() {
        guard MonotonicClock.now &- start < nanoseconds else { return false }
        do { try await Task.sleep(for: interval) } catch { return false }  // cancelled: stop waiting
    }
    return true
}
