#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Who wants the detector running, and the watchdog that serves them: the
/// process (``StallDetector/start(threshold:probeInterval:)``) and any
/// number of recording scopes (the testing module). The watchdog runs while
/// anyone wants it, with the smallest threshold and interval asked for;
/// each report reaches only those whose threshold it reaches.
///
/// ```swift
/// let id = StallMonitor.shared.addDemand(.init(threshold: .milliseconds(200), interval: .milliseconds(50)))
/// defer { StallMonitor.shared.removeDemand(id) }
/// ```
final class StallMonitor: Sendable {
    struct Demand: Equatable {
        var threshold: Duration
        var interval: Duration
    }

    private struct State {
        var process: Demand?
        var scoped: [UInt64: Demand] = [:]
        var nextID: UInt64 = 0
        var watchdog: StallWatchdog?
        var signal: Int32 = SIGPROF
        var generation: UInt64 = 0

        var configuration: StallWatchdog.Configuration? {
            let all = Array(scoped.values) + (process.map { [$0] } ?? [])
            guard let threshold = all.map(\.threshold).min(), let interval = all.map(\.interval).min() else { return nil }
            let nanoseconds = MonotonicClock.nanoseconds(threshold)
            return StallWatchdog.Configuration(
                threshold: max(nanoseconds, 1_000_000),
                interval: max(min(MonotonicClock.nanoseconds(interval), nanoseconds / 4), 1_000_000),
                processThreshold: process?.threshold)
        }
    }

    static let shared = StallMonitor()
    private let state = Lock(State())

    var isRunning: Bool { state.withLock { $0.watchdog != nil } }

    var signal: Int32 {
        get { state.withLock { $0.signal } }
        set { state.withLock { $0.signal = newValue } }
    }

    /// The watchdog, if running (for waiting on its looks).
    var watchdog: StallWatchdog? { state.withLock { $0.watchdog } }

    func setProcessDemand(_ demand: Demand?) {
        if demand != nil { Self.reportAtExit }
        update { $0.process = demand }
    }

    /// At exit, a stall still lasting is reported to the process-wide
    /// handler with its length so far (it never ended, so no ended report
    /// would say it happened). Registered once, with the first start.
    private static let reportAtExit: Void = {
        atexit {
            let monitor = StallMonitor.shared
            let (watchdog, threshold) = monitor.state.withLock { ($0.watchdog, $0.process?.threshold) }
            guard let watchdog, let threshold else { return }
            for stall in watchdog.ongoingStalls() where stall.duration >= threshold {
                ConcurrencyStallHandler.deliver(stall, processThreshold: threshold)
            }
        }
    }()

    func addDemand(_ demand: Demand) -> UInt64 {
        var id: UInt64 = 0
        update { state in
            state.nextID += 1
            id = state.nextID
            state.scoped[id] = demand
        }
        return id
    }

    func removeDemand(_ id: UInt64) {
        update { _ = $0.scoped.removeValue(forKey: id) }
    }

    /// Changes the demands, then starts, reconfigures or stops the watchdog
    /// after unlocking: no lock is taken inside another (the watchdog's
    /// configuration has its own). Each change is numbered, so two changes
    /// racing to the watchdog leave the later one's configuration.
    private func update(_ change: (inout State) -> Void) {
        enum Action { case start(StallWatchdog), reconfigure(StallWatchdog, StallWatchdog.Configuration, UInt64), stop(StallWatchdog), none }
        let action = state.withLock { state -> Action in
            change(&state)
            state.generation += 1
            switch (state.watchdog, state.configuration) {
            case (nil, let configuration?):
                let watchdog = StallWatchdog(configuration: configuration, signal: state.signal)
                state.watchdog = watchdog
                return .start(watchdog)
            case (let watchdog?, let configuration?):
                return .reconfigure(watchdog, configuration, state.generation)
            case (let watchdog?, nil):
                state.watchdog = nil
                return .stop(watchdog)
            case (nil, nil):
                return .none
            }
        }
        switch action {
        case .start(let watchdog): watchdog.start()
        case .reconfigure(let watchdog, let configuration, let generation):
            let changed = watchdog.configuration.withLock { current in
                guard generation > current.generation, current != configuration else { return false }
                current = configuration
                current.generation = generation
                return true
            }
            if changed { watchdog.poke() }
        case .stop(let watchdog): watchdog.stop()
        case .none: break
        }
    }
}
