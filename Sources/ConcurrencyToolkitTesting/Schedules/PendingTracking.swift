import ConcurrencyToolkit

/// Keeps `PendingContinuations.isTracking` on while any schedule runs, so a
/// deadlock can list the continuations it waits on, and restores what it was
/// when the last one ends (schedules of explorations running at once overlap).
enum PendingTracking {
    private static let state = Lock<(running: Int, wasTracking: Bool)>((0, false))

    static func begin() {
        state.withLock { state in
            if state.running == 0 {
                state.wasTracking = PendingContinuations.isTracking
                PendingContinuations.isTracking = true
            }
            state.running += 1
        }
    }

    static func end() {
        state.withLock { state in
            state.running -= 1
            if state.running == 0 { PendingContinuations.isTracking = state.wasTracking }
        }
    }
}
