@testable import ConcurrencyToolkit
import Testing

/// The registry forgets released executors even when no watcher looks: a
/// program that makes a monitored actor per request and never starts the
/// detector kept an entry for every executor it ever made.
@Suite struct ContentionRegistryTests {
    @Test func releasedExecutorsAreForgottenWithoutAWatcher() {
        let registry = ContentionRegistry()
        let kept = MonitoredExecutorCore(label: "kept")
        registry.add(kept)
        for index in 0..<10_000 {
            registry.add(MonitoredExecutorCore(label: "request-\(index)"))  // released at once
        }
        #expect(registry.entryCount <= 128, "\(registry.entryCount) entries for 1 live executor")
        #expect(registry.live().map(ObjectIdentifier.init) == [ObjectIdentifier(kept)])
    }
}
