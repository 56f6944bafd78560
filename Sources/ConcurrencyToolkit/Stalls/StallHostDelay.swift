#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How much of a stall its blamed threads spent runnable but off a CPU:
/// waiting on a run queue while other processes held the cores. That part
/// is the host's, not the program's (Documentation/StallDetection.md, "On a
/// busy host").
///
/// From the run-queue wait in `/proc/self/task/TID/schedstat`, read for the
/// blamed threads from their capture to just after the stall: the share of
/// that window they waited, averaged, is put on the host for the whole stall
/// (the same load is assumed before the stall was seen).
struct StallHostDelay: Equatable {
    /// The threads' run-queue waits (nanoseconds, cumulative) at one instant.
    struct Reading: Equatable {
        var at: UInt64
        var waits: [UInt64: UInt64]
    }

    private(set) var first: Reading?
    private(set) var last: Reading?
    /// Set once the stall is answered and read one last time.
    var isClosed = false

    mutating func record(_ reading: Reading) {
        if first == nil { first = reading } else { last = reading }
    }

    /// The share (0...1) of the watched window the threads waited for a
    /// CPU, averaged over the threads read at both ends; nil without two
    /// readings of at least one thread.
    var share: Double? {
        guard let first, let last, last.at > first.at else { return nil }
        var sum = 0.0
        var count = 0
        for (thread, start) in first.waits {
            guard let end = last.waits[thread], end >= start else { continue }
            sum += min(Double(end - start) / Double(last.at - first.at), 1)
            count += 1
        }
        return count == 0 ? nil : sum / Double(count)
    }

    /// The part of a stall `duration` nanoseconds long put on the host, at
    /// `share` (a ``share`` taken before the readings were reset); what
    /// ``ConcurrencyStall/hostDelay`` holds. Whether that makes the stall the
    /// host's is ``ConcurrencyStall/isCausedByHost``'s rule.
    static func delay(share: Double?, of duration: UInt64) -> Duration? {
        share.map { .nanoseconds(Int64(clamping: UInt64(Double(duration) * $0))) }
    }

    /// Reads each thread's run-queue wait now (threads gone are left out).
    static func read(threads: [UInt64], now: UInt64) -> Reading {
        var waits: [UInt64: UInt64] = [:]
        #if os(Linux)
        for thread in threads {
            if let text = SmallFile.text(of: "/proc/self/task/\(thread)/schedstat"),
                let wait = runQueueWait(inSchedstat: text)
            {
                waits[thread] = wait
            }
        }
        #endif
        return Reading(at: now, waits: waits)
    }

    /// The second field of a schedstat line (`run_ns wait_ns timeslices`).
    static func runQueueWait(inSchedstat line: String) -> UInt64? {
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count >= 2 else { return nil }
        return UInt64(fields[1])
    }
}
