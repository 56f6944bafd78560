#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether this process runs under ThreadSanitizer (its runtime is linked
/// in): threads start several times slower, and a stall capture takes no
/// stacks. The one place a test asks.
///
/// ```swift
/// let limit: Duration = isRunningUnderThreadSanitizer ? .seconds(30) : .seconds(5)
/// ```
package let isRunningUnderThreadSanitizer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
