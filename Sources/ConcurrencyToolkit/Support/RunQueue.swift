#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// How many threads the machine has runnable right now: the running count
/// of `/proc/loadavg` ("3/412": 3 runnable of 412), read at most once per
/// interval, by whichever caller comes first.
///
/// A ``BlockingExecutor`` asks on every submission whether a spin can pay
/// (``SpinWindow``). A read is three system calls, microseconds, so it is
/// made only when the last one is older than the interval: a caller in
/// between pays an atomic load and a comparison (Performance.md, "The
/// hand-offs on a busy machine"). `nil` where there is no such file (not
/// Linux, or no /proc): then nothing is known and the windows spin as they
/// learned. The count is the whole machine's (a container sees its host's),
/// so a container limited to fewer cores than its host sees the cores as
/// busier than its own: it spins less, never more.
final class RunQueue: Sendable {
    /// Nanoseconds between two reads.
    let interval: UInt64
    /// What a read does: ``readLoadAverage()`` (tests count reads).
    private let reader: @Sendable () -> Int?
    private let readAt = Atomic<UInt64>(0)
    /// A count every call returns instead of reading (tests); -1: none.
    private let pinned = Atomic<Int>(-1)

    init(interval: UInt64, read: @escaping @Sendable () -> Int? = RunQueue.readLoadAverage) {
        self.interval = interval
        self.reader = read
    }

    /// A new count of the runnable threads, the caller among them, if the
    /// last read is at least `interval` before `now` (``MonotonicClock``)
    /// and no other thread reads it first; `nil` otherwise, or if there is
    /// nothing to read. Each reading goes to one caller, so the readings a
    /// caller sees are `interval` apart.
    func reading(now: UInt64) -> Int? {
        let pin = pinned.load(ordering: .relaxed)
        if pin >= 0 { return pin }
        let last = readAt.load(ordering: .relaxed)
        guard last == 0 || (now > last && now - last >= interval),
            readAt.compareExchange(expected: last, desired: max(now, 1), ordering: .relaxed).exchanged
        else { return nil }
        return reader()
    }

    /// From now on every call returns `runnable` and nothing is read (tests:
    /// a machine as idle or as busy as they need, whatever runs beside them).
    func pin(runnable: Int) {
        pinned.store(runnable, ordering: .relaxed)
    }

    /// Reads `/proc/loadavg` without allocating (its line is under 64 bytes).
    static func readLoadAverage() -> Int? {
        #if os(Linux)
        return SmallFile.withBytes(of: "/proc/loadavg", capacity: 128) { runnableCount(inLoadAverage: $0) }
        #else
        return nil
        #endif
    }

    /// The runnable count of a `/proc/loadavg` line: the number before the
    /// `/` of its fourth field. `nil` for anything else.
    static func runnableCount(inLoadAverage line: some Collection<UInt8>) -> Int? {
        var field = 0
        var inSpace = false
        var count = 0
        var digits = 0
        for byte in line {
            if byte == UInt8(ascii: " ") {
                if !inSpace { field += 1 }
                inSpace = true
                continue
            }
            inSpace = false
            guard field == 3 else { continue }
            if byte == UInt8(ascii: "/") { return digits > 0 ? count : nil }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits < 9 else { return nil }
            count = count * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return nil
    }
}
