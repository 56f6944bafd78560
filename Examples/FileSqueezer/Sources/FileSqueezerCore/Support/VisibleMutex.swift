import Synchronization

/// A `Mutex` whose hand-offs ThreadSanitizer can see. The toolkit's own lock
/// is internal to it, and this app uses only the toolkit's API, as an
/// app that depends on the package would; its locks are rarely contended.
///
/// On Linux, `Mutex`'s contended path is a futex wait inside the
/// uninstrumented Swift runtime, so TSan misses the hand-off and reports
/// races on data the mutex does protect. An acquiring load at the start of
/// every critical section and a releasing store at its end give TSan the edge.
struct VisibleMutex<Value: ~Copyable>: ~Copyable, Sendable {
    private let mutex: Mutex<Value>
    private let handoff = Atomic<UInt8>(0)

    init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            _ = handoff.load(ordering: .acquiring)
            defer { handoff.store(0, ordering: .releasing) }
            return try body(&value)
        }
    }
}
