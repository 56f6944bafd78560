import Synchronization

/// A `Mutex` whose hand-offs ThreadSanitizer can see.
///
/// On Linux, `Synchronization.Mutex` takes its *contended* path inside the
/// Swift runtime (a futex wait), which is not instrumented, so TSan misses
/// that hand-off and reports races on data the mutex does protect. An
/// acquiring load at the start of every critical section and a releasing
/// store at its end give TSan an instrumented edge from one holder to the
/// next. It adds no real ordering (the mutex already has it) and costs two
/// plain moves on x86-64.
struct SanitizerVisibleMutex<Value: ~Copyable>: ~Copyable, Sendable {
    private let mutex: Mutex<Value>
    private let handoff = Atomic<UInt8>(0)

    init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    @inline(__always)
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
