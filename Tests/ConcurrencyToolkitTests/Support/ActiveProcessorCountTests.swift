#if os(Linux)
@testable import ConcurrencyToolkit
import TestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `taskset -c 0`, or a container's cpuset, gives a process one core though
/// the machine has more: it must count as one, so executors do not spin.
@Suite struct ActiveProcessorCountTests {
    private typealias AffinityFunction = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32

    @Test func aThreadPinnedToOneCPUCountsOneAndNeverSpins() throws {
        let set = try #require(dlsym(nil, "sched_setaffinity").map { unsafeBitCast($0, to: AffinityFunction.self) })
        // Locked (the toolkit's pthread lock), not Synchronization's Mutex:
        // its lock is in an uninstrumented library, so ThreadSanitizer saw
        // the write on the pinned thread and the read here as a race (seen once in CI).
        let seen = Locked<(count: Int, spins: Bool)?>(nil)
        // A thread of its own: the mask is the calling thread's, and the test
        // must not pin a thread of the cooperative pool.
        let thread = Thread {
            var mask: UInt64 = 1  // CPU 0 only
            guard withUnsafeMutableBytes(of: &mask, { set(0, $0.count, $0.baseAddress!) }) == 0 else { return }
            seen.withLock { $0 = (activeProcessorCount, SpinWindow.adaptive().isEnabled) }
        }
        thread.start()
        let deadline = Date().addingTimeInterval(30)
        while seen.withLock({ $0 == nil }) && Date() < deadline { usleep(1_000) }
        let result = try #require(seen.withLock { $0 }, "the pinned thread did not report (sched_setaffinity failed?)")
        #expect(result.count == 1)
        #expect(result.spins == false)
    }
}
#endif
