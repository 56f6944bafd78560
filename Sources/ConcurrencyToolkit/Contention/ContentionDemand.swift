#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Who wants actor contention watched, and the watcher that serves them:
/// the process (``ActorContentionDetector/start(threshold:)``) and any number
/// of recording scopes (the testing module). The watcher thread runs while
/// anyone wants it, with the smallest threshold asked for; each report
/// reaches only those whose threshold it reaches.
///
/// ```swift
/// let id = ContentionDemand.shared.add(threshold: .milliseconds(100))
/// defer { ContentionDemand.shared.remove(id) }
/// ```
final class ContentionDemand: Sendable {
    static let shared = ContentionDemand()

    private struct State {
        var process: Duration?
        var scoped: [UInt64: Duration] = [:]
        var nextID: UInt64 = 0
        var watcher: ContentionWatcher?

        var configuration: ContentionWatcher.Configuration? {
            let all = Array(scoped.values) + (process.map { [$0] } ?? [])
            guard let threshold = all.min() else { return nil }
            let nanoseconds = max(MonotonicClock.nanoseconds(threshold), 1_000_000)
            return ContentionWatcher.Configuration(
                threshold: nanoseconds, interval: min(max(nanoseconds / 4, 1_000_000), 50_000_000),
                processThreshold: process)
        }
    }

    private let state = Lock(State())

    /// The watcher, if running (for waiting on its looks).
    var watcher: ContentionWatcher? { state.withLock { $0.watcher } }

    func setProcess(threshold: Duration?) {
        update { $0.process = threshold }
    }

    func add(threshold: Duration) -> UInt64 {
        var id: UInt64 = 0
        update { state in
            state.nextID += 1
            id = state.nextID
            state.scoped[id] = threshold
        }
        return id
    }

    func remove(_ id: UInt64) {
        update { _ = $0.scoped.removeValue(forKey: id) }
    }

    /// Changes the demands, then starts, reconfigures or stops the watcher (after unlocking).
    private func update(_ change: (inout State) -> Void) {
        enum Action { case start(ContentionWatcher), stop(ContentionWatcher), none }
        let action = state.withLock { state -> Action in
            change(&state)
            switch (state.watcher, state.configuration) {
            case (nil, let configuration?):
                let watcher = ContentionWatcher(configuration: configuration)
                state.watcher = watcher
                return .start(watcher)
            case (let watcher?, let configuration?):
                watcher.configuration.withLock { $0 = configuration }
                return .none
            case (let watcher?, nil):
                state.watcher = nil
                return .stop(watcher)
            case (nil, nil):
                return .none
            }
        }
        switch action {
        case .start(let watcher): watcher.start()
        case .stop(let watcher): watcher.stop()
        case .none: break
        }
    }
}
