/// One probe: a long-lived task, on the main actor or on the cooperative
/// pool, that waits on a continuation. The watchdog "sends" it by resuming
/// that continuation, which enqueues the task's job where it runs (the main
/// actor's queue, or the pool's); when the job runs, the task notes the time
/// and waits again. A probe still unanswered after the threshold is a stall.
///
/// Reusing one task keeps the steady state free of allocations: resuming a
/// continuation enqueues the task's existing job, and the task's frames live
/// in its own allocator (unlike a `Task { }` per probe, which allocates a task).
final class StallProbe: Sendable {
    struct State {
        /// The waiting task's continuation, when it waits.
        var parked: UnsafeContinuation<Bool, Never>?
        /// When the probe now on its way was sent; nil when none is.
        var sentAt: UInt64?
        /// The last probe answered: when it was sent and when it ran.
        var answered: (sentAt: UInt64, ranAt: UInt64)?
        var stopped = false
    }

    let state = Lock(State())

    /// The task's loop; `isolation` is where it answers (pass `MainActor.shared`
    /// for the main actor, nil for the pool).
    /// The task's first run answers the probe ``arm(now:)`` sent.
    func serve(isolation: isolated (any Actor)? = #isolation) async {
        answer()
        while await withUnsafeContinuation(isolation: isolation, { park($0) }) {
            answer()
        }
    }

    private func answer() {
        let ranAt = MonotonicClock.now
        state.withLock { state in
            if let sentAt = state.sentAt { state.answered = (sentAt, ranAt) }
            state.sentAt = nil
        }
    }

    /// Counts the task itself as a probe sent at `now`, before it first
    /// runs: where the caller knows it will be run (the main actor, when the
    /// detector is started on it), a block that begins before the task's
    /// first run is then a stall from `now` on.
    func arm(now: UInt64) {
        state.withLock { state in
            if state.parked == nil && state.answered == nil { state.sentAt = now }
        }
    }

    private func park(_ continuation: UnsafeContinuation<Bool, Never>) {
        let stopped = state.withLock { state in
            if !state.stopped { state.parked = continuation }
            return state.stopped
        }
        if stopped { continuation.resume(returning: false) }
    }

    /// Sends a probe if the task waits for one; false if it does not (it has
    /// not started yet, or is between two probes).
    func send(now: UInt64) -> Bool {
        let parked = state.withLock { state -> UnsafeContinuation<Bool, Never>? in
            guard let parked = state.parked else { return nil }
            state.parked = nil
            state.sentAt = now
            return parked
        }
        parked?.resume(returning: true)
        return parked != nil
    }

    /// When the unanswered probe was sent, and the last answered one.
    var status: (pendingSince: UInt64?, answered: (sentAt: UInt64, ranAt: UInt64)?) {
        state.withLock { ($0.sentAt, $0.answered) }
    }

    /// Ends the task (now if it waits, else at its next wait).
    func stop() {
        let parked = state.withLock { state -> UnsafeContinuation<Bool, Never>? in
            state.stopped = true
            defer { state.parked = nil }
            return state.parked
        }
        parked?.resume(returning: false)
    }
}
