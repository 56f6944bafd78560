/// The life of one continuation, as a pure value: events in, outcome out.
///
/// `ContinuationBox` keeps it in one atomic byte and moves it with a single
/// compare-and-exchange, so this type is the whole state machine and can be
/// unit-tested without threads.
///
/// ```
/// pending ──resume──▶ resumed
///    │  ├──timeout──▶ timedOut     (a later resume is dropped silently)
///    │  ├──cancel───▶ cancelled    (a later resume is dropped silently)
///    └──last copy dropped──▶ leaked
/// ```
@usableFromInline
enum ContinuationState: UInt8, Sendable {
    case pending
    case resumed
    case timedOut
    case cancelled
    case leaked

    /// What happens when someone tries to finish a continuation in this state.
    @usableFromInline
    enum Outcome: Equatable, Sendable {
        /// This caller won: move to the new state and resume the waiter.
        case finish(ContinuationState)
        /// Already resumed by user code: report `.resumedMoreThanOnce`.
        case reportExtraResume
        /// Already finished by the toolkit (timeout, cancellation, leak):
        /// the caller is late, which is expected; drop it silently.
        case dropLate
        /// Nothing to do (a timeout or cancellation after the waiter was resumed).
        case ignore
    }

    @usableFromInline
    enum Event: Sendable {
        case resume, timeout, cancel, lastCopyDropped
    }

    @inlinable
    func on(_ event: Event) -> Outcome {
        switch (self, event) {
        case (.pending, .resume): .finish(.resumed)
        case (.pending, .timeout): .finish(.timedOut)
        case (.pending, .cancel): .finish(.cancelled)
        case (.pending, .lastCopyDropped): .finish(.leaked)
        case (.resumed, .resume): .reportExtraResume
        case (.timedOut, .resume), (.cancelled, .resume), (.leaked, .resume): .dropLate
        case (_, .timeout), (_, .cancel), (_, .lastCopyDropped): .ignore
        }
    }
}
