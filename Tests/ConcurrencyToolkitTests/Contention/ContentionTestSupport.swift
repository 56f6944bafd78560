@testable import ConcurrencyToolkit
import TestSupport
import Synchronization

/// An actor on a ``MonitoredActorExecutor``, as a user writes one.
actor MonitoredCounter {
    nonisolated let executor: MonitoredActorExecutor
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private(set) var value = 0
    private(set) var order: [String] = []

    init(label: String) {
        executor = MonitoredActorExecutor(label: label)
    }

    func increment() { value += 1 }

    func record(_ name: String) { order.append(name) }

    /// Holds the actor for 50 ms, as a slow method would.
    @inline(never)
    func holdTheActorFor50ms() {
        blockThread(milliseconds: 50)
    }

    /// Holds the actor until `gate` opens (at most 20 s).
    func hold(until gate: Counter) {
        let start = MonotonicClock.now
        while gate.count == 0 && MonotonicClock.now - start < 20_000_000_000 { blockThread(milliseconds: 1) }
    }

    func isolationHolds() -> Bool {
        preconditionIsolated()
        assertIsolated()
        executor.preconditionIsolated()
        executor.checkIsolated()
        return executor.isIsolatingCurrentContext() == true
    }
}

/// A label no other test uses: reports are process-wide, so a test keeps
/// only those of its own actors.
func uniqueLabel(_ name: String) -> String {
    "\(name)-\(labelCounter.wrappingAdd(1, ordering: .relaxed).newValue)"
}

private let labelCounter = Atomic<Int>(0)

/// Reports recorded while `operation` runs, with `threshold`.
func contentionsRecorded(
    threshold: Duration, label: String, _ operation: () async -> Void
) async -> [ActorContention] {
    let reports = Collected<ActorContention>()
    await ActorContentionDetector.recording(threshold: threshold, report: { report in
        reports.append(report)
    }) {
        await operation()
    }
    return reports.values.filter { $0.label == label }
}
