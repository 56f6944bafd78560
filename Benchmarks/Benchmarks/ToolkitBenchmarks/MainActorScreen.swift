#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Stands for UI state: the value on screen and how many updates the main
/// actor had to process to show it.
@MainActor
final class Screen {
    private(set) var shown = -1
    private(set) var updates = 0

    nonisolated init() {}

    func show(_ value: Int) {
        shown = value
        updates += 1
    }
}

/// CPU time the main thread (the main actor's thread here) has used so far.
/// Read before and after a run, the difference is what the main actor paid
/// for it: jobs plus the executor's scheduling work, at nanosecond resolution.
struct MainThreadCPUClock: Sendable {
    private let clock: clockid_t

    /// Must be awaited from a context that can hop to the main actor.
    static func make() async -> MainThreadCPUClock {
        let thread = await MainActor.run { pthread_self() }
        var clock = clockid_t()
        precondition(pthread_getcpuclockid(thread, &clock) == 0, "no CPU clock for the main thread")
        return MainThreadCPUClock(clock: clock)
    }

    var nanoseconds: Int {
        var now = timespec()
        clock_gettime(clock, &now)
        return now.tv_sec * 1_000_000_000 + now.tv_nsec
    }
}
