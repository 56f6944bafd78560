#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Who wants the detector running, and the watchdog that serves them: the
/// process (``StallDetector/start(threshold:probeInterval:)``) and any
/// number of recording scopes (the testing module), kept by a ``Demands``.
/// The watchdog runs while anyone wants it, with the smallest threshold and
/// interval asked for; each report reaches only those whose threshold it
/// reaches.
final class StallDemand: Sendable {
    struct Demand: Equatable, Sendable {
        var threshold: Duration
        var interval: Duration
    }

    static let shared = StallDemand()

    private let demands = Demands<Demand, StallWatcher>(
        configure: StallDemand.configuration,
        makeWorker: { StallWatcher(configuration: $0) })

    /// The smallest threshold and interval asked for (the interval at most
    /// a quarter of the threshold, both at least 1 ms).
    @Sendable private static func configuration(process: Demand?, all: [Demand]) -> StallWatcher.Configuration? {
        guard let threshold = all.map(\.threshold).min(), let interval = all.map(\.interval).min() else { return nil }
        let nanoseconds = MonotonicClock.nanoseconds(threshold)
        return StallWatcher.Configuration(
            threshold: max(nanoseconds, 1_000_000),
            interval: max(min(MonotonicClock.nanoseconds(interval), nanoseconds / 4), 1_000_000),
            processThreshold: process?.threshold)
    }

    var isRunning: Bool { demands.worker != nil }

    /// The watchdog, if running (for waiting on its looks).
    var watchdog: StallWatcher? { demands.worker }

    func setProcessDemand(_ demand: Demand?) {
        if demand != nil { Self.reportAtExit }
        demands.setProcessDemand(demand)
    }

    /// At exit, a stall still lasting is reported to the process-wide
    /// handler with its length so far (it never ended, so no ended report
    /// would say it happened). Registered once, with the first start.
    private static let reportAtExit: Void = {
        atexit {
            let (watchdog, process) = StallDemand.shared.demands.workerAndProcessDemand
            guard let watchdog, let threshold = process?.threshold else { return }
            for stall in watchdog.ongoingStalls() where stall.duration >= threshold {
                ConcurrencyStallHandler.deliver(stall, processThreshold: threshold)
            }
        }
    }()

    func addDemand(_ demand: Demand) -> UInt64 { demands.add(demand) }

    func removeDemand(_ id: UInt64) { demands.remove(id) }
}
