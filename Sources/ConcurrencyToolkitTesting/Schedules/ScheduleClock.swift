/// A clock on a schedule's virtual time inside an exploration, and on real
/// time outside: a 60 s sleep in a schedule costs nothing.
///
/// ```swift
/// let clock = ScheduleClock()
/// let exploration = await exploreSchedules(100) {
///     async let slow: Void = clock.sleep(for: .seconds(30))
///     async let fast: Void = clock.sleep(for: .seconds(10))
///     _ = try await (slow, fast)            // 30 s of virtual time, no real waiting
/// }
/// #expect(exploration.failures.isEmpty)
/// ```
///
/// Virtual time moves to the earliest deadline once nothing else can run, so
/// replays keep their order. Cancelling a sleep throws `CancellationError`.
/// `Task.detached {}` sleeps on real time, as a bare `Task.sleep` always does.
/// See <doc:ExploringSchedulesInTests>.
public struct ScheduleClock: Clock {
    /// `ContinuousClock`'s instant: in a schedule, its start plus virtual time.
    ///
    /// For example: `let start: ScheduleClock.Instant = ScheduleClock().now`
    public typealias Instant = ContinuousClock.Instant

    /// Creates the clock; every `ScheduleClock` reads the same time.
    ///
    /// For example: `let progress = ThrottledProgress<Int>(interval: .seconds(60), clock: ScheduleClock()) { _ in }`
    public init() {}

    /// Now: the schedule's virtual time in a schedule, real time outside.
    ///
    /// For example: `let before = clock.now; try await clock.sleep(for: .seconds(60))   // now is 60 s later, at once`
    public var now: Instant {
        ScheduleContext.executor?.now ?? .now
    }

    /// `ContinuousClock`'s resolution.
    ///
    /// For example: `#expect(ScheduleClock().minimumResolution > .zero)`
    public var minimumResolution: Duration {
        ContinuousClock().minimumResolution
    }

    /// Sleeps until `deadline`, on virtual time in a schedule, on real time
    /// outside; throws `CancellationError` when the task is cancelled first.
    ///
    /// For example: `try await clock.sleep(until: clock.now.advanced(by: .seconds(60)))`
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        guard let schedule = ScheduleContext.executor else {
            return try await ContinuousClock().sleep(until: deadline, tolerance: tolerance)
        }
        try await schedule.sleep(until: deadline)
    }
}

extension Clock where Self == ScheduleClock {
    /// A ``ScheduleClock``, for the places that take a clock.
    ///
    /// For example: `try await Task.sleep(for: .seconds(60), clock: .schedule)   // virtual time in a schedule`
    public static var schedule: ScheduleClock { ScheduleClock() }
}

/// The current task's schedule: set on the body's task, inherited but by detached tasks.
enum ScheduleContext {
    @TaskLocal static var executor: ScheduleExecutor?
}
