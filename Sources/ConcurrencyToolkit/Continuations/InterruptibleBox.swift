/// What the timeout scheduler and a cancellation slot see of a continuation
/// box: a non-generic base class, so they can point to any box without owning
/// it.
///
/// They hold `Unmanaged` references and use them only under their own lock,
/// which the box's `deinit` takes to detach itself; so the box is alive
/// whenever they touch it. They touch it only through
/// `_withUnsafeGuaranteedRef`, never taking a retain: a retain of theirs could
/// be the last one, and its release would run the box's `deinit` — which takes
/// their lock — on their own thread, under that lock.
@usableFromInline
class InterruptibleBox: @unchecked Sendable {
    // @unchecked: `timerIndex` is guarded by the timeout scheduler's lock.

    /// Position in the timeout scheduler's heap (-1: not there).
    /// Unchecked exclusivity: the scheduler's lock already serializes every
    /// access, and the dynamic check showed up in the timeout path's profile.
    @exclusivity(unchecked) @usableFromInline final var timerIndex = -1

    @inlinable init() {}

    /// Claims the continuation for a timeout or cancellation; returns the
    /// resumption to run after the caller's lock is released, or `nil` if
    /// something else finished it first. Called under the caller's lock.
    func interrupt(_ event: ContinuationState.Event) -> (@Sendable () -> Void)? {
        nil
    }
}
