/// Keeps an object's memory allocated without keeping the object alive: an
/// `unowned` reference. The object's `deinit` still runs when its last strong
/// reference goes; only freeing the memory waits until the pin is gone.
///
/// `withSafeThrowingContinuation(onCancel:)` needs exactly this. Its task's
/// cancellation handler reaches the continuation box through an unretained
/// pointer, because a retained one would keep a leaked continuation alive and
/// hang its waiter. When the continuation is still waiting after `body`, the
/// frame that installed the handler gives up its own reference and holds a
/// pin instead, until the handler has been removed (the runtime removes it
/// only once a running handler has returned). So the pointer always points to
/// memory that is still allocated, even when the last copy of the
/// continuation was dropped on another thread a moment before. Such a box is
/// never pending, so the handler's compare-and-exchange on its state byte just
/// fails. (`StressTests` races exactly this; under AddressSanitizer, removing
/// the pin makes it report a heap use after free.)
@usableFromInline
struct UnownedPin {
    // Never read: holding it is the point (an unowned reference counts
    // towards the memory's lifetime, not the object's).
    @usableFromInline unowned let object: AnyObject

    @inlinable init(_ object: AnyObject) { self.object = object }
}
