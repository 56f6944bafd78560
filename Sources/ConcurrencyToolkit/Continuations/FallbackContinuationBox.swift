/// The box of the non-throwing form: a leak resumes the waiter with the
/// caller's fallback value instead of throwing.
@usableFromInline
final class FallbackContinuationBox<Success>: ContinuationBox<Success, Never>, @unchecked Sendable {
    // @unchecked: `fallback` is read only by the winner of the leak
    // transition, in `deinit`, when nobody else can touch the box.
    @usableFromInline let fallback: Success

    @inlinable
    init(_ raw: UnsafeContinuation<Success, Never>, ifLeaked fallback: consuming Success, site: CallSite) {
        self.fallback = fallback
        super.init(raw, site: site)
    }

    deinit {
        // Runs before the base class's deinit, while `fallback` still exists;
        // the base then sees the continuation finished and does nothing.
        guard transition(.lastCopyDropped) == .finish(.leaked) else { return }
        reportLeak()
        raw.resume(returning: fallback)
    }
}
