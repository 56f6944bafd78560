#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The monotonic nanosecond clock of the timeout scheduler.
///
/// Reading the precise clock costs about 60 ns on this Linux VM, half the
/// budget of a timed continuation; the coarse clock costs about 9 ns but lags
/// by up to one tick (4 ms here). Deadlines are therefore computed from the
/// coarse clock plus one tick, so they are never early and at most one tick
/// late, and the timer compares them against the precise clock when it fires.
enum TimeoutClock {
    /// Now, on the precise monotonic clock.
    static func preciseNow() -> UInt64 {
        read(CLOCK_MONOTONIC)
    }

    /// A deadline `nanoseconds` from now: never earlier than
    /// `preciseNow() + nanoseconds`, at most one coarse tick later.
    static func deadline(after nanoseconds: UInt64) -> UInt64 {
        #if os(Linux)
        return read(CLOCK_MONOTONIC_COARSE) &+ coarseResolution &+ nanoseconds
        #else
        return preciseNow() &+ nanoseconds
        #endif
    }

    #if os(Linux)
    static let coarseResolution: UInt64 = {
        var resolution = timespec()
        clock_getres(CLOCK_MONOTONIC_COARSE, &resolution)
        return UInt64(resolution.tv_sec) * 1_000_000_000 + UInt64(resolution.tv_nsec)
    }()
    #endif

    private static func read(_ clock: clockid_t) -> UInt64 {
        var now = timespec()
        clock_gettime(clock, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// `duration` in nanoseconds, clamped to 0 for negative durations and to
    /// about 146 years for huge ones (so deadlines never overflow).
    static func nanoseconds(_ duration: Duration) -> UInt64 {
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        let limit = UInt64.max / 4
        guard seconds < Int64(limit / 1_000_000_000) else { return limit }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
