#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The threads running blocking work right now: a ``BlockingExecutor`` lane
/// draining its jobs, a ``BlockingSerialExecutor``'s queue running its
/// actor. None of them is a cooperative-pool thread, so the stall detector
/// never signals them to capture a stack: the blocking calls they exist for
/// (`poll`, `usleep`, `sem_wait`, which no `SA_RESTART` restarts) are not
/// cut short with `EINTR` whenever some other code stalls the pool.
///
/// A thread registers once, on its first burst, and leaves the registry when
/// it exits (a pthread key's destructor); a burst itself is two atomic
/// additions on the thread's entry, no lock (a lane pays it per burst of
/// work, a serial executor per job). The stall blame asks just before it
/// signals each thread, so only a burst that begins in the microseconds
/// between that question and the signal can still be interrupted.
enum BlockingThreads {
    /// A thread that has run blocking work: how many bursts it is inside
    /// now (nested executors nest).
    private final class Entry: Sendable {
        let id: UInt64
        let depth = Atomic<Int>(0)
        init(id: UInt64) { self.id = id }
    }

    /// Thread id → its entry, from the thread's first burst until it exits.
    private static let threads = Lock<[UInt64: Entry]>([:])

    /// Holds the calling thread's entry (retained); its destructor forgets
    /// the entry when the thread exits.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) {
            let pointer: UnsafeMutableRawPointer? = $0
            guard let pointer else { return }
            let entry = Unmanaged<Entry>.fromOpaque(pointer).takeRetainedValue()
            BlockingThreads.threads.withLock { if $0[entry.id] === entry { $0[entry.id] = nil } }
        }
        return key
    }()

    /// Runs `body` with the calling thread counted as running blocking work.
    static func running<Result>(_ body: () throws -> Result) rethrows -> Result {
        let entry = currentEntry()
        entry.depth.add(1, ordering: .sequentiallyConsistent)
        defer { entry.depth.subtract(1, ordering: .sequentiallyConsistent) }
        return try body()
    }

    /// Whether thread `id` runs blocking work at this moment.
    static func isRunning(_ id: UInt64) -> Bool {
        guard let entry = threads.withLock({ $0[id] }) else { return false }
        return entry.depth.load(ordering: .sequentiallyConsistent) > 0
    }

    /// How many threads the registry holds (tests: an exited thread leaves it).
    static var registeredCount: Int { threads.withLock { $0.count } }

    private static func currentEntry() -> Entry {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Entry>.fromOpaque(pointer).takeUnretainedValue()
        }
        let entry = Entry(id: CurrentThread.id)
        threads.withLock { $0[entry.id] = entry }
        pthread_setspecific(key, Unmanaged.passRetained(entry).toOpaque())
        return entry
    }
}
