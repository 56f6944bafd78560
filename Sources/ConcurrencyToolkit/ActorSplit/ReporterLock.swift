#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#else
import Synchronization
#endif

/// The lock around a reporter's state machine: a `pthread_mutex_t` on Linux,
/// `Mutex` (an `os_unfair_lock`) elsewhere.
///
/// Why not `Synchronization.Mutex` on Linux (measured here, Swift 6.3.1, 2
/// cores, 8 threads incrementing a counter): its contended path is a
/// priority-inheritance futex that hands the lock from thread to thread
/// through the kernel, so with more reporting threads than cores every
/// acquisition waits for a context switch — about 50 µs per lock, against
/// about 40 ns for glibc's default mutex, which lets the running thread take
/// the lock again. Reporters are hammered from many threads by design, so
/// that difference is the difference between `report` being cheap and not.
/// It also keeps ThreadSanitizer accurate: TSan cannot see the kernel
/// handoff and reports false races on a contended `Mutex`, while it
/// intercepts `pthread_mutex_lock`.
@usableFromInline
final class ReporterLock<State>: @unchecked Sendable {
    // @unchecked: `state` is only touched inside `withLock`.
    @usableFromInline var state: State
    #if canImport(Glibc) || canImport(Musl)
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
    #else
    @usableFromInline let mutex = Mutex(())
    #endif

    init(_ state: State) {
        self.state = state
        #if canImport(Glibc) || canImport(Musl)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
        #endif
    }

    deinit {
        #if canImport(Glibc) || canImport(Musl)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        #endif
    }

    /// Runs `body` with exclusive access to the state. `body` must be short,
    /// must not block, and must not call user code.
    @inlinable
    func withLock<Result>(_ body: (inout State) -> Result) -> Result {
        #if canImport(Glibc) || canImport(Musl)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&state)
        #else
        return mutex.withLock { _ in body(&state) }
        #endif
    }
}
