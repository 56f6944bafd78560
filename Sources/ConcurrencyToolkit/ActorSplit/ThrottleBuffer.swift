/// What a throttled reporter keeps between two deliveries: the policy that
/// turns many reports into one batch.
///
/// All three reporters share one mechanism (``ThrottleStateMachine`` and
/// ``ThrottleStorage``); only the buffer differs. A buffer lives inside the
/// storage's lock, so its methods must be O(1) for `add` and never call user code.
@usableFromInline
protocol ThrottleBuffer: Sendable {
    associatedtype Input: Sendable
    associatedtype Batch: Sendable

    var isEmpty: Bool { get }

    /// Adds one report. `leftover` is whatever must be destroyed once the
    /// lock is released (a replaced value, or `input` itself when refused), so
    /// that no user `deinit` runs under the lock.
    mutating func add(_ input: consuming Input) -> (accepted: Bool, leftover: Input?)

    /// Removes everything buffered, as one batch. Only called when not empty.
    mutating func take() -> Batch

    /// How a trace recording names this buffer's deliveries.
    static var deliveryKind: TraceEvent.DeliveryKind { get }

    /// How many values `batch` hands to the handler, for a trace recording.
    static func valueCount(of batch: Batch) -> Int
}
