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
package func blockThread(milliseconds: UInt64) {
    let end = ContinuousClock.now + .milliseconds(milliseconds)
    while case let now = ContinuousClock.now, now < end {
        usleep(useconds_t(min(end - now, .seconds(5)) / .microseconds(1)))
    }
}
