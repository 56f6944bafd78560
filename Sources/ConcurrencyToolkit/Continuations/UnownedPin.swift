/// Keeps an object's memory allocated without keeping the object alive: an
/// `unowned` reference. The object's `deinit` still runs when its last strong
/// reference goes; only freeing the memory waits until the pin is gone.
///
/// For `withSafeThrowingContinuation(onCancel:)`: its cancellation handler
/// reaches the box through an unretained pointer (a retained one would keep a
/// leaked continuation alive), so the installing frame pins the box until the
/// handler is removed. A box freed meanwhile is never pending, so the
/// handler's compare-and-exchange just fails. `StressTests` races this.
@usableFromInline
struct UnownedPin {
    // Never read: holding it is the point (an unowned reference counts
    // towards the memory's lifetime, not the object's).
    @usableFromInline unowned let object: AnyObject

    @inlinable init(_ object: AnyObject) { self.object = object }
}
