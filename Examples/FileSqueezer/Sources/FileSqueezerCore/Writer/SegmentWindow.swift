import ConcurrencyToolkit

/// Bounds how many segments of a run are started but not yet written: the
/// memory bound of parallel compression.
///
/// Segments are numbered across the whole run in the order they are
/// started. Segment `i` may start only when every segment before
/// `i - limit + 1` has been released (written to its file, or dropped), so the
/// segments holding a buffer are always within `limit` consecutive numbers:
/// at most `limit` compressed segments exist at once, however unevenly they
/// finish. That holds only if a segment's output is allocated after
/// ``enter(_:)`` and freed before ``release(_:)``, as ``SegmentedFile`` and
/// ``OneSegmentFiles`` do;
/// ``peakOutputs`` counts the buffers themselves.
///
/// ```swift
/// let window = SegmentWindow(limit: 6)
/// try await window.enter(i)     // suspends (never blocks a thread) until i is within the window
/// // ... compress segment i; the file's writer writes it in order ...
/// window.release(i)             // written or dropped: later segments may start
/// ```
///
/// It cannot deadlock: the lowest unreleased segment is always inside the
/// window, and everything before it in its file is written, so it is
/// written as soon as it is compressed. A segment whose task is cancelled
/// while waiting throws `CancellationError` at once; it must still be
/// released (it counts as dropped) for the segments after it.
final class SegmentWindow: Sendable {
    /// The most segments started and not released.
    let limit: Int
    private let state = VisibleMutex(State())

    private struct State {
        /// Every segment below this has been released.
        var lowWater = 0
        /// Released segments above `lowWater`.
        var releasedAbove: Set<Int> = []
        /// Entered, not released.
        var outstanding: Set<Int> = []
        var peakOutstanding = 0
        var waits = 0
        var waiters: [Int: (index: Int, continuation: SafeContinuation<Void, any Error>)] = [:]
        var nextWaiterID = 0
        /// Waits whose waiter is not registered yet (nor admitted, nor cancelled).
        var registering: Set<Int> = []
        /// Waits cancelled in that gap: their continuation already threw, so
        /// they must not be registered (a stale waiter would be entered later).
        var cancelledBeforeRegistering: Set<Int> = []

        func admits(_ index: Int, limit: Int) -> Bool { index < lowWater + limit }

        mutating func enter(_ index: Int) {
            outstanding.insert(index)
            peakOutstanding = max(peakOutstanding, outstanding.count)
        }
    }

    /// Tests only: runs in ``enter(_:)`` when a segment must wait, after its
    /// continuation is armed and before its waiter is registered.
    private let beforeRegistering: (@Sendable () -> Void)?

    init(limit: Int, beforeRegistering: (@Sendable () -> Void)? = nil) {
        precondition(limit >= 1, "a segment window needs room for at least one segment")
        self.limit = limit
        self.beforeRegistering = beforeRegistering
    }

    /// Segments waiting to enter (tests: none is left behind by cancellation).
    var waiting: Int { state.withLock { $0.waiters.count } }

    /// The most segments that were entered and not released at once.
    var peakOutstanding: Int { state.withLock { $0.peakOutstanding } }

    /// How many times a segment had to wait for the window (for tuning:
    /// each wait is a worker not compressing).
    var waits: Int { state.withLock { $0.waits } }

    /// The compressed outputs of this run's segments, counted by the buffers
    /// themselves from allocation to deallocation (``SegmentedFile`` creates
    /// them with it). Each is made after its segment entered and freed before
    /// its segment is released, so at most ``limit`` exist at once.
    let outputs = LiveCount()

    /// The most compressed segment outputs that existed at once: at most ``limit``.
    var peakOutputs: Int { outputs.peak }

    /// Returns when segment `index` may start.
    /// - Throws: `CancellationError` if the task is cancelled while waiting.
    func enter(_ index: Int) async throws {
        if tryEnter(index) { return }
        let limit = limit
        let id = state.withLock { state in
            state.waits += 1
            defer { state.nextWaiterID += 1 }
            state.registering.insert(state.nextWaiterID)
            return state.nextWaiterID
        }
        // Whatever happened, nothing about this wait may stay behind.
        defer {
            state.withLock { state in
                state.registering.remove(id)
                state.cancelledBeforeRegistering.remove(id)
            }
        }
        let beforeRegistering = beforeRegistering
        try await withSafeThrowingContinuation(onCancel: { [self] in
            // The continuation has thrown CancellationError already. Cancelled
            // after the continuation is armed but before the body below
            // registers the waiter, there is nothing to remove yet: leave a
            // note so the body does not register it.
            state.withLock { state in
                if state.waiters.removeValue(forKey: id) == nil, state.registering.remove(id) != nil {
                    state.cancelledBeforeRegistering.insert(id)
                }
            }
        }) { (continuation: SafeContinuation<Void, any Error>) in
            beforeRegistering?()
            let now = state.withLock { state -> Bool in
                state.registering.remove(id)
                if state.cancelledBeforeRegistering.remove(id) != nil { return false }
                if state.admits(index, limit: limit) {
                    state.enter(index)
                    return true
                }
                state.waiters[id] = (index, continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Enters segment `index` if it may start now, without waiting.
    /// - Returns: Whether it entered (if not, nothing changed).
    func tryEnter(_ index: Int) -> Bool {
        let limit = limit
        return state.withLock { state in
            guard state.admits(index, limit: limit) else { return false }
            state.enter(index)
            return true
        }
    }

    /// Segment `index` is written or dropped; wakes the segments that now fit.
    func release(_ index: Int) {
        let limit = limit
        let ready = state.withLock { state -> [SafeContinuation<Void, any Error>] in
            state.outstanding.remove(index)
            if index == state.lowWater {
                state.lowWater += 1
                while state.releasedAbove.remove(state.lowWater) != nil { state.lowWater += 1 }
            } else if index > state.lowWater {
                state.releasedAbove.insert(index)
            }
            var ready: [SafeContinuation<Void, any Error>] = []
            for (id, waiter) in state.waiters where state.admits(waiter.index, limit: limit) {
                state.waiters[id] = nil
                state.enter(waiter.index)
                ready.append(waiter.continuation)
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }
}
