/// Keeps only the newest report: progress, where an older value is worthless
/// once a newer one exists. Memory: one value.
@usableFromInline
struct LatestValueBuffer<Value: Sendable>: ThrottleBuffer {
    @usableFromInline var value: Value?

    @inlinable init() { value = nil }

    @inlinable var isEmpty: Bool { value == nil }

    @inlinable
    mutating func add(_ input: consuming Value) -> (accepted: Bool, leftover: Value?) {
        let replaced = value.take()
        value = consume input
        return (true, replaced)
    }

    @inlinable
    mutating func take() -> Value { value.take()! }
}
