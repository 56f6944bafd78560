@testable import ConcurrencyToolkit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Blocks the calling thread for at least `milliseconds`, as a blocking call
/// would. Use it, never a bare `usleep`, wherever a test relies on the time:
/// while any test of this process detects a stall, the detector signals every
/// thread to capture its stack, and a signal ends `usleep` early (`EINTR`).
/// A bare `usleep(20_000)` in a job once lasted under 15 ms in CI that way.
@inline(never)
func blockThread(milliseconds: UInt64) {
    let end = MonotonicClock.now + milliseconds * 1_000_000
    while case let now = MonotonicClock.now, now < end {
        usleep(useconds_t(min(end - now, 5_000_000) / 1_000))
    }
}
