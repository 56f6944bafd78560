@testable import FileSqueezerCore

/// A value shared between test tasks and threads, behind the app's
/// ThreadSanitizer-visible mutex (a class, so closures can capture it).
final class Locked<Value: Sendable>: Sendable {
    private let mutex: VisibleMutex<Value>

    init(_ value: Value) { mutex = VisibleMutex(value) }

    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
        mutex.withLock { value in body(&value) }
    }

    var value: Value { withLock { $0 } }
}
