/// The one heap allocation behind a ``Lock``: the guarded value as the
/// header, the OS lock as the single tail element.
///
/// A `ManagedBuffer` because the lock must never move (an initialized
/// `pthread_mutex_t` may not be copied: the kernel queues its waiters by its
/// address) and a Swift stored property has no stable address; tail memory
/// does, for the object's whole life. Value and lock share the allocation, so
/// a lock costs one allocation, like a class with one stored property.
@usableFromInline
final class LockStorage<Value>: ManagedBuffer<Value, LockPrimitive> {
    @inlinable
    static func make(_ value: sending Value) -> LockStorage {
        let buffer = create(minimumCapacity: 1) { _ in value }
        let storage = unsafeDowncast(buffer, to: LockStorage.self)
        storage.withUnsafeMutablePointerToElements { LockOperations.initialize($0) }
        return storage
    }

    deinit {
        // The header (the value) is destroyed by ManagedBuffer itself.
        withUnsafeMutablePointerToElements { LockOperations.destroy($0) }
    }
}
