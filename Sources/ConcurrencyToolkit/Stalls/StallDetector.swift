#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the main actor or the cooperative pool not running jobs — a
/// blocking call on the main actor, every pool thread stuck in a
/// `read`, a lock or a long loop — in any code, and reports each
/// ``ConcurrencyStall`` with the blocking threads' stacks.
///
/// ```swift
/// @main struct Server {
///     static func main() async throws {
///         StallDetector.start()                 // 250 ms threshold, a look every 100 ms
///         defer { StallDetector.stop() }
///         try await runServer()
///     }
/// }
/// ```
///
/// A watchdog thread sends a probe job to the main actor and to the pool
/// every `probeInterval`; a probe not started within `threshold` is a stall.
/// Each stall is reported once, when it ends, with the stacks captured while
/// it lasted, to the ``ConcurrencyStallHandler`` (by default a
/// `CONCURRENCY STALL:` block on standard error); one that lasts 10 s is also
/// reported while it lasts, and one still lasting at exit then. A block of
/// `threshold + probeInterval` or longer is always caught, a shorter one only
/// sometimes. A thread asleep in the kernel is read, never signalled. Cost:
/// nothing until started. See Documentation/StallDetection.md, "How it works".
public enum StallDetector {
    /// The default threshold, 250 ms: what Apple's tools call a hang.
    ///
    /// For example: `StallDetector.start(threshold: StallDetector.defaultThreshold * 2)`
    public static let defaultThreshold: Duration = .milliseconds(250)
    /// The shortest threshold, 10 ms: a probe waits that long for a thread on
    /// a healthy machine (a wake-up, a time slice), so a lower threshold
    /// would report an idle program's scheduling as stalls.
    ///
    /// For example: `StallDetector.start(threshold: max(.milliseconds(5), StallDetector.minimumThreshold))`
    public static let minimumThreshold: Duration = .milliseconds(10)

    /// The default time between two probes, 100 ms.
    ///
    /// For example: `StallDetector.start(probeInterval: StallDetector.defaultProbeInterval / 2)`
    public static let defaultProbeInterval: Duration = .milliseconds(100)

    /// Starts the detector for the process, reporting to the process-wide
    /// ``ConcurrencyStallHandler`` every stall of at least `threshold`.
    ///
    /// For example: `StallDetector.start(threshold: .milliseconds(500))`
    ///
    /// Idempotent: starting a running detector changes its threshold and
    /// interval and does nothing else. The probe interval is at most a
    /// quarter of the threshold. Called from a task on the main actor, it
    /// watches the main actor at once; otherwise once a probe ran there.
    ///
    /// A threshold or interval of zero or less stops the process with a
    /// message. A threshold below ``minimumThreshold`` is raised to it, with
    /// one warning on standard error.
    public static func start(threshold: Duration = defaultThreshold, probeInterval: Duration = defaultProbeInterval) {
        let threshold = DetectorThreshold.checked(threshold, floor: minimumThreshold, call: "StallDetector.start")
        checkPrecondition(
            probeInterval > .zero, "StallDetector.start(probeInterval: \(probeInterval)): probeInterval must be more than zero")
        StallDemand.shared.setProcessDemand(StallDemand.Demand(threshold: threshold, interval: probeInterval))
        // Called from a task on the main actor (an async `main`, a `@MainActor`
        // task): the main queue is drained, so the main actor is watched from
        // now on, even if it blocks before the probe's task first runs.
        if MainQueue.isCurrent && withUnsafeCurrentTask(body: { $0 != nil }) {
            StallDemand.shared.watchdog?.armMainProbe()
        }
    }

    /// Stops the detector started by ``start(threshold:probeInterval:)``
    /// within one probe interval. A stall still lasting is not reported as
    /// ended; one that just ended may be reported after `stop()` returns
    /// (call ``waitForEndedReports(within:)`` first to have it before).
    ///
    /// For example: `StallDetector.stop()`
    ///
    /// Idempotent: stopping a stopped detector does nothing. While a testing
    /// helper (`withConcurrencyStallsRecorded`) records, the detector runs on
    /// for it, but the process-wide handler gets no more reports.
    public static func stop() {
        StallDemand.shared.setProcessDemand(nil)
    }

    /// Waits until every stall seen so far has had its ended report
    /// delivered, or `limit` passed: at the end of a run, before a summary
    /// or before `stop()`, so the last stall is counted.
    ///
    /// ```swift
    /// StallDetector.start()
    /// try await importer.run()
    /// await StallDetector.waitForEndedReports()   // the stall that ended with the run is reported
    /// StallDetector.stop()
    /// ```
    ///
    /// It returns at once when no stall can still be reported, or when the
    /// detector is not running. A stall still lasting is waited for until
    /// `limit`; cancelling the calling task ends the wait.
    public static func waitForEndedReports(within limit: Duration = .seconds(5)) async {
        guard let watchdog = StallDemand.shared.watchdog else { return }
        let start = MonotonicClock.now
        let nanoseconds = MonotonicClock.nanoseconds(limit)
        // Until it is stopped (its last reports are then made on its thread).
        while watchdog.mayHaveUnreportedStall() && MonotonicClock.now &- start < nanoseconds
            && StallDemand.shared.watchdog === watchdog
        {
            watchdog.poke()
            do { try await Task.sleep(for: .milliseconds(5)) } catch { return }
        }
    }

    /// Whether the detector runs (for the process or for a testing helper).
    ///
    /// For example: `if !StallDetector.isRunning { StallDetector.start() }`
    public static var isRunning: Bool { StallDemand.shared.isRunning }

    /// The signal used to capture a running thread's stack: another name
    /// for ``StackCapture/signal``, which the contention detector uses too.
    /// Set it before the first start.
    ///
    /// ```swift
    /// StallDetector.captureSignal = SIGUSR2   // if the program profiles with SIGPROF (the main actor only, then)
    /// StallDetector.start()
    /// ```
    public static var captureSignal: Int32 {
        get { StackCapture.signal }
        set { StackCapture.signal = newValue }
    }
}
