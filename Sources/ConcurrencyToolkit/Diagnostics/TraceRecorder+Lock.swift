import Synchronization

extension TraceRecorder {
    /// A `Mutex` whose ordering ThreadSanitizer can see.
    ///
    /// Nested here, not a top-level type, because the Blocking branch adds the
    /// same idea as `SanitizerVisibleMutex`; once both are on main this can be
    /// replaced by that one.
    ///
    /// On Linux (Swift 6.3.1) `Synchronization.Mutex` locks with a futex inside
    /// the uninstrumented standard library, so TSan sees no happens-before edge
    /// between two critical sections and reports every value they share as a
    /// "Swift access race" (reproduced with four threads incrementing one counter).
    /// An acquire load on entry and a release increment on exit of an `Atomic`
    /// compiled into this module give TSan the edge the mutex already guarantees.
    /// Cost: two uncontended atomic operations on the same cache line, only on
    /// paths that lock anyway.
    struct Lock<Value: ~Copyable>: ~Copyable, Sendable {
        private let mutex: Mutex<Value>
        private let handshake = Atomic<UInt>(0)

        init(_ value: consuming sending Value) {
            mutex = Mutex(value)
        }

        borrowing func withLock<Result, Failure: Error>(
            _ body: (inout sending Value) throws(Failure) -> sending Result
        ) throws(Failure) -> sending Result {
            try mutex.withLock { (value: inout sending Value) throws(Failure) -> sending Result in
                _ = handshake.load(ordering: .acquiring)
                defer { handshake.wrappingAdd(1, ordering: .releasing) }
                return try body(&value)
            }
        }
    }
}
