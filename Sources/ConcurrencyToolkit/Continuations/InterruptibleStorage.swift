/// What the timeout scheduler sees of a continuation box: a non-generic base
/// class, so it can point to any box without owning it.
///
/// It holds `Unmanaged` references and uses them only under its own lock,
/// which the box's `deinit` takes to remove itself; so the box is alive
/// whenever the scheduler touches it. It touches it only through
/// `_withUnsafeGuaranteedRef`, never taking a retain: a retain of its own could
/// be the last one, and its release would run the box's `deinit` — which takes
/// the scheduler's lock — on the scheduler's thread, under that lock.
@usableFromInline
class InterruptibleBox: @unchecked Sendable {
    // @unchecked: `timerIndex` is guarded by the timeout scheduler's lock.

    /// Position in the timeout scheduler's heap (-1: not there).
    /// Unchecked exclusivity: the scheduler's lock already serializes every
    /// access, and the dynamic check showed up in the timeout path's profile.
    @exclusivity(unchecked) @usableFromInline final var timerIndex = -1

    @inlinable init() {}

    /// Claims the continuation for a timeout of `timeout`; returns the
    /// resumption to run after the caller's lock is released (it also stops
    /// the work, for a box made with `onCancel:`), or `nil` if something else
    /// finished it first. Called under the caller's lock.
    func timeOut(after timeout: Duration) -> (@Sendable () -> Void)? {
        nil
    }
}
