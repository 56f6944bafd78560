/// A value behind a lock: the one lock type of ConcurrencyToolkit, its testing
/// module and its tests (`package`, not public API). A reference: copies share
/// one value and one lock, and the value is destroyed with the last copy.
///
/// Not `Synchronization.Mutex`: on Linux a contended `Mutex` unlock hands the
/// lock to a sleeping thread through the kernel (Documentation/Performance.md,
/// "Why the code is as it is"), and ThreadSanitizer cannot see its ordering, so
/// it reports the guarded value as raced. glibc's `pthread_mutex_t` (on Apple
/// platforms `os_unfair_lock`, as `Mutex` uses) has neither problem; it lives
/// at an address that never changes (``LockStorage``).
///
/// Not recursive: `withLock` inside its own `body` deadlocks, and nothing is
/// reported. `body` must be short and must not block, suspend, resume a
/// continuation or call user code: return what to do, and do it after. The
/// value is handed over with `sending`, like `Mutex`'s, because the state
/// machines it guards are not `Sendable`.
@usableFromInline
package struct Lock<Value>: @unchecked Sendable {
    // @unchecked: like `Mutex`, Sendable for any Value, because the value only
    // enters through `sending` and is only reached inside `withLock`.
    @usableFromInline let storage: LockStorage<Value>

    /// Creates a lock guarding `value`.
    @inlinable
    package init(_ value: sending Value) {
        storage = LockStorage.make(value)
    }

    /// Runs `body` with exclusive access to the value and returns what it returns.
    /// `body` cannot throw: a throwing critical section would tempt work under the lock.
    @inlinable
    package func withLock<Result>(_ body: (inout sending Value) -> sending Result) -> sending Result {
        // The pointers stay valid while `storage` is alive, which `self` ensures
        // for this call. Taken here, through this Sendable value, the guarded
        // value is disconnected for the region checker, so it can be handed
        // to `body` as `inout sending`, exactly as `Mutex.withLock` does.
        let (value, primitive) = storage.withUnsafeMutablePointers { ($0, $1) }
        LockOperations.lock(primitive)
        defer { LockOperations.unlock(primitive) }
        return body(&value.pointee)
    }
}
