/// A clock on a schedule's virtual time inside ``exploreSchedules(_:seed:_:)``
/// and the other explorations, and on real time (`ContinuousClock`'s) outside
/// them: give it to code that takes a clock, and a 60 s sleep in a schedule
/// costs nothing.
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
/// In a schedule, a sleep waits until nothing else in the schedule can run;
/// then virtual time moves to the earliest deadline and those sleepers wake,
/// in deadline order, ties in the order they went to sleep. So a replay of
/// a seed gives the same order with sleeps in it, and a sleeping task is
/// never taken for a deadlock. Cancelling a sleeping task throws
/// `CancellationError`, as `Task.sleep` does. `now` reads virtual time.
///
/// The schedule is found through a task-local value the exploration sets on
/// the body's task: the body, its `async let` and task-group children, the
/// actors they call and `Task {}` made in them (which run outside the
/// schedule, but sleep on its time) see it; `Task.detached {}` does not, and
/// sleeps on real time. A bare `Task.sleep` always takes its real time:
/// without toolchain SPI no sleep can reach the schedule
/// (Documentation/MakingRacesReproducible.md, "Time").
public struct ScheduleClock: Clock {
    /// `ContinuousClock`'s instant: in a schedule, the instant the schedule
    /// started plus its virtual time.
    ///
    /// For example: `let start: ScheduleClock.Instant = ScheduleClock().now`
    public typealias Instant = ContinuousClock.Instant

    /// Creates the clock; every `ScheduleClock` reads the same time.
    ///
    /// For example: `let progress = ThrottledProgress<Int>(interval: .seconds(60), clock: ScheduleClock()) { _ in }`
    public init() {}

    /// Now: the schedule's virtual time in a schedule, real time outside.
    ///
    /// ```swift
    /// let clock = ScheduleClock()
    /// let before = clock.now
    /// try await clock.sleep(for: .seconds(60))
    /// print(before.duration(to: clock.now))   // 60 s in a schedule, at once
    /// ```
    public var now: Instant {
        ScheduleContext.executor?.now ?? .now
    }

    /// `ContinuousClock`'s resolution.
    ///
    /// For example: `#expect(ScheduleClock().minimumResolution > .zero)`
    public var minimumResolution: Duration {
        ContinuousClock().minimumResolution
    }

    /// Sleeps until `deadline`: on virtual time in a schedule, which moves
    /// to it once nothing else there can run; on real time outside.
    ///
    /// ```swift
    /// let clock = ScheduleClock()
    /// try await clock.sleep(until: clock.now.advanced(by: .seconds(60)))
    /// ```
    ///
    /// - Throws: `CancellationError` when the task is cancelled first.
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

/// The schedule that the current task belongs to, if any: set on the body's
/// task by ``ScheduleRun``, inherited by the tasks it makes (but detached ones).
enum ScheduleContext {
    @TaskLocal static var executor: ScheduleExecutor?
}
