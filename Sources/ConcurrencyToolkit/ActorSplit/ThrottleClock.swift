/// Any `Clock<Duration>`, erased to "time since the reporter was created", so
/// the reporters stay generic over their value only and the state machine can
/// work with plain `Duration`s.
@usableFromInline
struct ThrottleClock: Sendable {
    let now: @Sendable () -> Duration
    let sleep: @Sendable (_ until: Duration) async throws -> Void

    init<C: Clock>(_ clock: C) where C.Duration == Duration {
        let start = clock.now
        now = { start.duration(to: clock.now) }
        sleep = { deadline in try await clock.sleep(until: start.advanced(by: deadline), tolerance: nil) }
    }
}
