/// How many of something exist now, and the most that existed at once:
/// lets tests check a memory bound on the objects themselves.
///
/// ```swift
/// let outputs = LiveCount()
/// let buffer = ByteBuffer(capacity: 1 << 20, counted: outputs)   // outputs.live == 1
/// ```
final class LiveCount: Sendable {
    private let counts = VisibleMutex((live: 0, peak: 0))

    init() {}

    var live: Int { counts.withLock { $0.live } }
    var peak: Int { counts.withLock { $0.peak } }

    func increment() {
        counts.withLock { counts in
            counts.live += 1
            counts.peak = max(counts.peak, counts.live)
        }
    }

    func decrement() {
        counts.withLock { $0.live -= 1 }
    }
}
