/// Keeps every report, in order, up to `capacity`: log lines, where each one
/// matters. A full buffer refuses new elements (the reporter counts them)
/// instead of growing without bound when the consumer falls behind.
@usableFromInline
struct AccumulatingBuffer<Element: Sendable>: ThrottleBuffer {
    @usableFromInline var elements: [Element]
    @usableFromInline let capacity: Int

    @inlinable init(capacity: Int) {
        self.capacity = capacity
        elements = []
    }

    @inlinable var isEmpty: Bool { elements.isEmpty }

    @inlinable
    mutating func add(_ input: consuming Element) -> (accepted: Bool, leftover: Element?) {
        guard elements.count < capacity else { return (false, input) }
        elements.append(input)
        return (true, nil)
    }

    @inlinable
    mutating func take() -> [Element] {
        let batch = elements
        elements = []
        elements.reserveCapacity(batch.count)
        return batch
    }
}
