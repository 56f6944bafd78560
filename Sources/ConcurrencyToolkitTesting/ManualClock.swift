import ConcurrencyToolkit

/// A `Clock` that moves only when a test says so, for deterministic tests of
/// anything timed (throttling, timeouts) without real sleeps.
///
/// ```swift
/// @MainActor var seen: [Int] = []
///
/// @Test func deliversAtMostOncePerInterval() async {
///     let clock = ManualClock()
///     let progress = ThrottledProgress<Int>(interval: .milliseconds(100), clock: clock) { @MainActor value in
///         seen.append(value)
///     }
///     progress.report(1)                   // delivered at once
///     await clock.waitForSleepers(count: 1) // the reporter now waits for t = 100 ms
///     progress.report(2)
///     clock.advance(by: .milliseconds(100)) // 2 is delivered now, not before
/// }
/// ```
///
/// A sleep suspends until ``advance(by:)`` or ``advance(to:)`` reaches its
/// deadline; due sleepers resume in deadline order, ties in the order they
/// slept. A cancelled sleep throws `CancellationError` at once. Time never
/// goes backwards.
public final class ManualClock: Clock, Sendable {
    /// A point on a ``ManualClock``: the time advanced since the clock was created.
    ///
    /// For example: `#expect(clock.now == .zero.advanced(by: .milliseconds(250)))`
    public struct Instant: InstantProtocol, Sendable {
        /// Time since the clock's start.
        ///
        /// For example: `#expect(clock.now.offset == .milliseconds(250))`
        public var offset: Duration

        /// The clock's start.
        ///
        /// For example: `let deadline = ManualClock.Instant.zero.advanced(by: .seconds(1))`
        public static var zero: Instant { Instant(offset: .zero) }

        /// The instant `duration` after this one.
        ///
        /// For example: `let later = clock.now.advanced(by: .milliseconds(10))`
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The time from this instant to `other`.
        ///
        /// For example: `let waited = start.duration(to: clock.now)`
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Whether `lhs` comes before `rhs`.
        ///
        /// For example: `#expect(start < clock.now)`
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: UnsafeContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant.zero
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var countWaiters: [(count: Int, continuation: UnsafeContinuation<Void, Never>)] = []
        /// Sleeps cancelled before they registered (the handler can run first).
        var cancelledBeforeSleeping: Set<UInt64> = []

        /// Removes and returns the waiters satisfied by the current sleeper count.
        mutating func satisfiedCountWaiters() -> [UnsafeContinuation<Void, Never>] {
            let ready = countWaiters.filter { sleepers.count >= $0.count }.map(\.continuation)
            countWaiters.removeAll { sleepers.count >= $0.count }
            return ready
        }
    }

    private let state = Lock(State())

    private func withState<Result: Sendable>(_ body: (inout State) -> Result) -> Result {
        state.withLock { state in body(&state) }
    }

    /// Creates a clock at ``Instant/zero``.
    ///
    /// For example: `let clock = ManualClock()`
    public init() {}

    /// The current instant; changes only through ``advance(by:)`` and ``advance(to:)``.
    ///
    /// For example: `let start = clock.now`
    public var now: Instant { withState { $0.now } }

    /// Zero: a manual clock is exact.
    ///
    /// For example: `#expect(clock.minimumResolution == .zero)`
    public var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on this clock right now.
    ///
    /// For example: `#expect(clock.sleeperCount == 0)       // nothing is waiting for time to pass`
    public var sleeperCount: Int { withState { $0.sleepers.count } }

    /// Suspends until the clock is advanced to `deadline` or beyond (`tolerance` is
    /// ignored); throws `CancellationError` if the task is or becomes cancelled first.
    ///
    /// For example: `try await clock.sleep(until: clock.now.advanced(by: .seconds(1)))`
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = withState { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                let (resumeNow, countWaiters) = withState { state -> (Bool, [UnsafeContinuation<Void, Never>]) in
                    // Cancelled before we got here: `nextID` is marked by the handler below.
                    if state.cancelledBeforeSleeping.remove(id) != nil || deadline <= state.now {
                        return (true, [])
                    }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (false, state.satisfiedCountWaiters())
                }
                for waiter in countWaiters { waiter.resume() }
                if resumeNow {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume()
                    }
                }
            }
        } onCancel: {
            let sleeper = withState { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
                    state.cancelledBeforeSleeping.insert(id)
                    return nil
                }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and resumes every sleeper now due, earliest first.
    /// They run later, on their own executors: wait for their effects (with
    /// ``waitForSleepers(count:)``, say) before asserting.
    ///
    /// For example: `clock.advance(by: .milliseconds(100))`
    public func advance(by duration: Duration) {
        advance(to: now.advanced(by: duration))
    }

    /// Moves time forward to `instant`, if later than ``now``, as ``advance(by:)`` does.
    ///
    /// For example: `clock.advance(to: .zero.advanced(by: .seconds(2)))`
    public func advance(to instant: Instant) {
        let due = withState { state -> [Sleeper] in
            guard instant > state.now else { return [] }
            state.now = instant
            // Stable: equal deadlines keep the order in which they went to sleep.
            let due = state.sleepers.filter { $0.deadline <= instant }
                .enumerated().sorted { ($0.element.deadline, $0.offset) < ($1.element.deadline, $1.offset) }
                .map(\.element)
            state.sleepers.removeAll { $0.deadline <= instant }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Suspends until at least `count` tasks sleep on this clock: the code
    /// under test reached its next timed wait. Ignores cancellation: guard
    /// the test with a time limit.
    ///
    /// For example: `await clock.waitForSleepers(count: 1)  // the reporter waits for the next slot`
    public func waitForSleepers(count: Int) async {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            let ready = withState { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.countWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
