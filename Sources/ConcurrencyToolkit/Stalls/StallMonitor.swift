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
        update { $0.process = demand }
    }

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
    /// (after unlocking).
    private func update(_ change: (inout State) -> Void) {
        enum Action { case start(StallWatchdog), reconfigure(StallWatchdog), stop(StallWatchdog), none }
        let action = state.withLock { state -> Action in
            change(&state)
            switch (state.watchdog, state.configuration) {
            case (nil, let configuration?):
                let watchdog = StallWatchdog(configuration: configuration, signal: state.signal)
                state.watchdog = watchdog
                return .start(watchdog)
            case (let watchdog?, let configuration?):
                let changed = watchdog.configuration.withLock { current in
                    defer { current = configuration }
                    return current != configuration
                }
                return changed ? .reconfigure(watchdog) : .none
            case (let watchdog?, nil):
                state.watchdog = nil
                return .stop(watchdog)
            case (nil, nil):
                return .none
            }
        }
        switch action {
        case .start(let watchdog): watchdog.start()
        case .reconfigure(let watchdog): watchdog.poke()
        case .stop(let watchdog): watchdog.stop()
        case .none: break
        }
    }
}
