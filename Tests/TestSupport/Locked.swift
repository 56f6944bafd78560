import ConcurrencyToolkit

/// A value shared between test tasks and threads, behind the toolkit's lock
/// (which ThreadSanitizer sees); a class, so closures can capture it.
///
/// ```swift
/// let next = Locked(0)
/// DispatchQueue.concurrentPerform(iterations: 8) { _ in next.withLock { $0 += 1 } }
/// #expect(next.value == 8)
/// ```
package final class Locked<Value: Sendable>: Sendable {
    private let lock: Lock<Value>

    package init(_ value: Value) { lock = Lock(value) }

    package func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { value in body(&value) }
    }

    package var value: Value { withLock { $0 } }
}
