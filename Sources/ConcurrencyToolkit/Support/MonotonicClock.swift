#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The library's one clock: nanoseconds on CLOCK_MONOTONIC, which never jumps
/// and is comparable across threads. Timeouts, traces and metrics all read it.
///
/// Precise, not coarse: a coarse clock is cheaper but can lag by more than
/// its tick, which makes deadlines fire early; a timeout must never fire
/// before its deadline.
enum MonotonicClock {
    /// Now, in nanoseconds.
    static var now: UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
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
