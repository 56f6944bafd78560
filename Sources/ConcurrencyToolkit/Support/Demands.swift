/// A worker thread that runs only while someone wants it (the stall
/// watchdog, the contention watcher), started, reconfigured and stopped by
/// ``Demands``.
protocol DemandDrivenWorker: AnyObject, Sendable {
    associatedtype Configuration: Equatable & Sendable
    /// What it works with, and the number of the change that set it.
    var configuration: Lock<Versioned<Configuration>> { get }
    func start()
    /// Asks it to end (it may take one look).
    func stop()
    /// Wakes it for a look now, after its configuration changed.
    func poke()
}

/// A value and the number of the change that set it: of two changes racing
/// to apply, the later one's value stays.
struct Versioned<Value: Sendable>: Sendable {
    var value: Value
    var generation: UInt64

    init(_ value: Value, generation: UInt64 = 0) {
        self.value = value
        self.generation = generation
    }
}

/// Who wants a worker running: the process (one demand, set and cleared by
/// a `start()`/`stop()` pair) and any number of recording scopes (added
/// and removed by the testing helpers). The worker runs while anyone wants
/// it, with the configuration `configure` makes of all the demands; it is
/// started, reconfigured or stopped after the lock is released, so no lock
/// is ever taken inside another.
final class Demands<Demand: Sendable, Worker: DemandDrivenWorker>: Sendable {
    private struct State: Sendable {
        var process: Demand?
        var scoped: [UInt64: Demand] = [:]
        var nextID: UInt64 = 0
        var worker: Worker?
        var generation: UInt64 = 0
    }

    private let state = Lock(State())

    /// Sets `configuration` on `worker` unless a later change already did;
    /// records the change's number even when the value is the same, so an
    /// earlier change arriving after it cannot undo it. True if the value changed.
    static func apply(_ configuration: Worker.Configuration, generation: UInt64, to worker: Worker) -> Bool {
        worker.configuration.withLock { current in
            guard generation > current.generation else { return false }
            let changed = current.value != configuration
            current = Versioned(configuration, generation: generation)
            return changed
        }
    }

    /// What ``update(_:)`` does with the worker once the lock is released.
    private enum Action {
        case start(Worker), reconfigure(Worker, Worker.Configuration, UInt64), stop(Worker), none
    }
    /// The worker's configuration for the process's demand and all of them
    /// (the process's included), or nil when there is none.
    private let configure: @Sendable (_ process: Demand?, _ all: [Demand]) -> Worker.Configuration?
    /// Called under the lock: must take no lock of its own.
    private let makeWorker: @Sendable (Worker.Configuration) -> Worker

    init(
        configure: @escaping @Sendable (_ process: Demand?, _ all: [Demand]) -> Worker.Configuration?,
        makeWorker: @escaping @Sendable (Worker.Configuration) -> Worker
    ) {
        self.configure = configure
        self.makeWorker = makeWorker
    }

    /// The worker, if running.
    var worker: Worker? { state.withLock { $0.worker } }

    /// The worker and the process's demand, read together.
    var workerAndProcessDemand: (worker: Worker?, process: Demand?) { state.withLock { ($0.worker, $0.process) } }

    func setProcessDemand(_ demand: Demand?) {
        update { $0.process = demand }
    }

    func add(_ demand: Demand) -> UInt64 {
        var id: UInt64 = 0
        update { state in
            state.nextID += 1
            id = state.nextID
            state.scoped[id] = demand
        }
        return id
    }

    func remove(_ id: UInt64) {
        update { _ = $0.scoped.removeValue(forKey: id) }
    }

    /// Changes the demands, then starts, reconfigures or stops the worker
    /// after unlocking. Each change is numbered, so two changes racing to
    /// the worker leave the later one's configuration.
    private func update(_ change: (inout State) -> Void) {
        let action = state.withLock { state -> Action in
            change(&state)
            state.generation += 1
            let all = Array(state.scoped.values) + (state.process.map { [$0] } ?? [])
            switch (state.worker, configure(state.process, all)) {
            case (nil, let configuration?):
                let worker = makeWorker(configuration)
                state.worker = worker
                return .start(worker)
            case (let worker?, let configuration?):
                return .reconfigure(worker, configuration, state.generation)
            case (let worker?, nil):
                state.worker = nil
                return .stop(worker)
            case (nil, nil):
                return .none
            }
        }
        switch action {
        case .start(let worker): worker.start()
        case .reconfigure(let worker, let configuration, let generation):
            if Self.apply(configuration, generation: generation, to: worker) { worker.poke() }
        case .stop(let worker): worker.stop()
        case .none: break
        }
    }
}
