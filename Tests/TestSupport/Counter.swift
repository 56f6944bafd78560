import Synchronization

/// A thread-safe counter that escaping `@Sendable` closures (callbacks,
/// `onCancel`, job bodies) can capture. Shared by every suite.
final class Counter: Sendable {
    private let storage = Atomic<Int>(0)
    var count: Int { storage.load(ordering: .sequentiallyConsistent) }
    func increment() { storage.add(1, ordering: .sequentiallyConsistent) }
}
