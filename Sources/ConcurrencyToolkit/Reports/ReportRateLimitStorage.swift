#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// Keeps a report written to standard error from flooding it: the first
/// report for a key (a call site and a kind) is written in full, repeats are
/// counted, and the counts are written as one summary line at most once per
/// interval, for example
/// `CONTINUATION MISUSE: …and 99,999 more from App/main.swift:7 (leaked) in the last 10 s`.
///
/// The storage of ``ReportRateLimitStateMachine``: the lock, the clock and
/// the timer. Each ``ReportRouter`` makes one for its default handler, with
/// its kind's banner as the prefix. Only the writing is limited: custom
/// handlers and test helpers are given every report by the router, before
/// any limiter.
///
/// A summary still held back when the process exits normally is written by
/// an `atexit` hook.
package final class ReportRateLimitStorage: Sendable {
    private let state: Lock<ReportRateLimitStateMachine>
    private let write: @Sendable (String) -> Void
    private let now: @Sendable () -> UInt64
    private let schedule: @Sendable (UInt64, @escaping @Sendable () -> Void) -> Void

    /// - Parameters:
    ///   - interval: At most one summary line per interval.
    ///   - summaryPrefix: Starts the summary line, as the full lines start.
    ///   - write: Where lines go (tests capture them).
    ///   - now: A monotonic clock in nanoseconds (tests pass their own).
    ///   - schedule: Calls its closure after the nanoseconds given (tests run it by hand).
    ///   - flushesAtExit: Whether an `atexit` hook writes what is still held back.
    package init(
        interval: Duration = .seconds(10), summaryPrefix: String,
        write: @escaping @Sendable (String) -> Void = writeToStandardError,
        now: @escaping @Sendable () -> UInt64 = { MonotonicClock.now },
        schedule: @escaping @Sendable (UInt64, @escaping @Sendable () -> Void) -> Void = ReportRateLimitStorage.afterDelay,
        flushesAtExit: Bool = true
    ) {
        self.state = Lock(ReportRateLimitStateMachine(interval: MonotonicClock.nanoseconds(interval), summaryPrefix: summaryPrefix))
        self.write = write
        self.now = now
        self.schedule = schedule
        if flushesAtExit { Self.flushAtExit(self) }
    }

    /// Writes `line` if it is the first for `key`; otherwise counts it for the next summary.
    package func report(key: String, line: String) {
        let time = now()
        let actions = state.withLock { $0.report(key: key, line: line, now: time) }
        for action in actions {
            switch action {
            case .write(let line): write(line)
            case .scheduleFlush(let delay): schedule(delay) { [self] in flush() }
            }
        }
    }

    /// Writes the summary of what was held back, if anything was.
    package func flush() {
        let time = now()
        if let summary = state.withLock({ $0.flush(now: time) }) { write(summary) }
    }

    static let afterDelay: @Sendable (UInt64, @escaping @Sendable () -> Void) -> Void = { delay, work in
        DispatchQueue.global(qos: .utility).asyncAfter(
            deadline: .now() + .nanoseconds(Int(clamping: delay)), execute: work)
    }

    // MARK: - Flushing at exit

    private static let atExit = Lock<(registered: Bool, limiters: [ReportRateLimitStorage])>((false, []))

    private static func flushAtExit(_ limiter: ReportRateLimitStorage) {
        let register = atExit.withLock { entry in
            entry.limiters.append(limiter)
            defer { entry.registered = true }
            return !entry.registered
        }
        if register {
            atexit { for limiter in ReportRateLimitStorage.atExit.withLock({ $0.limiters }) { limiter.flush() } }
        }
    }
}
