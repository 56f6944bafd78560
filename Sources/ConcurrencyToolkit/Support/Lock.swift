/// A value behind a lock: the one lock type of ConcurrencyToolkit, its testing
/// module and its tests.
///
/// It is a reference: copies share one value and one lock, so a lock can be
/// captured by escaping closures and kept in `static let`s. The value is
/// destroyed with the last copy.
///
/// Why not `Synchronization.Mutex` (the figures are in
/// Documentation/Performance.md, "Why the code is as it is"):
/// - **Contention.** On Linux `Mutex` is a priority-inheritance futex: a
///   contended unlock hands the lock to a sleeping thread through the kernel,
///   so with more threads than cores every acquisition waits for a context
///   switch, where glibc's default `pthread_mutex_t` lets the running
///   thread take it again. `ThrottledProgress.report` is called from many
///   threads by design, and the timeout scheduler's lock is process-wide.
/// - **ThreadSanitizer.** `Mutex` locks inside the uninstrumented standard
///   library, so TSan sees no ordering between two critical sections and
///   reports the guarded value as raced. TSan intercepts `pthread_mutex_lock`
///   (and `os_unfair_lock_lock` on Apple platforms), so it sees this lock as
///   it is: accesses inside are ordered, accesses outside are still reported.
///
/// On Apple platforms the primitive is `os_unfair_lock`, the one `Mutex`
/// uses there. The lock lives in the same allocation as the value, at an
/// address that never changes (see ``LockStorage``).
///
/// Misuse: the lock is not recursive. Calling `withLock` on the same lock
/// inside its own `body` deadlocks: the thread hangs, nothing is reported. `body` must be short and must not block, suspend, resume a
/// continuation or call user code: return what to do, and do it after
/// `withLock` returns.
///
/// The value is handed over with `sending`, like `Mutex`'s, because the
/// state machines it guards (the executor's queue, the timeout heap) are not
/// `Sendable`: what goes in or comes out must not stay reachable elsewhere.
///
/// `package`: shared with ConcurrencyToolkitTesting and the tests, not public API.
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
    ///
    /// The lock is released when `body` returns. `body` cannot throw: no
    /// critical section in the toolkit needs to, and a throwing one would
    /// tempt work under the lock. Not recursive: see the type's discussion.
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
