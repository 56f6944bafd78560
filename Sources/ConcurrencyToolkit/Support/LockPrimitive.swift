#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#else
#error("ConcurrencyToolkit's Lock has no primitive for this platform")
#endif

// The operating system lock behind ``Lock``: `os_unfair_lock` on Apple
// platforms (what `Synchronization.Mutex` uses there), glibc's or musl's
// default `pthread_mutex_t` elsewhere. Both must stay at one address from
// init to destroy, so they only ever live in ``LockStorage``'s tail memory.
#if canImport(Darwin)
@usableFromInline typealias LockPrimitive = os_unfair_lock_s
#else
@usableFromInline typealias LockPrimitive = pthread_mutex_t
#endif

/// The four calls ``LockStorage`` makes on its primitive, one place per platform.
@usableFromInline
enum LockOperations {
    @inlinable
    static func initialize(_ primitive: UnsafeMutablePointer<LockPrimitive>) {
        #if canImport(Darwin)
        primitive.initialize(to: os_unfair_lock())
        #else
        primitive.initialize(to: pthread_mutex_t())
        // Default attributes: a plain futex lock that lets a running thread
        // take it again, rather than handing it over through the kernel.
        let result = pthread_mutex_init(primitive, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
        #endif
    }

    @inlinable
    static func destroy(_ primitive: UnsafeMutablePointer<LockPrimitive>) {
        #if canImport(Darwin)
        primitive.deinitialize(count: 1)
        #else
        let result = pthread_mutex_destroy(primitive)
        assert(result == 0, "pthread_mutex_destroy failed (still locked?): \(result)")
        primitive.deinitialize(count: 1)
        #endif
    }

    @inlinable
    static func lock(_ primitive: UnsafeMutablePointer<LockPrimitive>) {
        #if canImport(Darwin)
        os_unfair_lock_lock(primitive)
        #else
        let result = pthread_mutex_lock(primitive)
        assert(result == 0, "pthread_mutex_lock failed: \(result)")
        #endif
    }

    @inlinable
    static func unlock(_ primitive: UnsafeMutablePointer<LockPrimitive>) {
        #if canImport(Darwin)
        os_unfair_lock_unlock(primitive)
        #else
        let result = pthread_mutex_unlock(primitive)
        assert(result == 0, "pthread_mutex_unlock failed: \(result)")
        #endif
    }
}
