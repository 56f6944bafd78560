/// Keeps the newest report per key: per-file progress for many files at once.
/// Memory: one value per distinct key reported since the last delivery.
@usableFromInline
struct KeyedLatestBuffer<Key: Hashable & Sendable, Value: Sendable>: ThrottleBuffer {
    @usableFromInline var values: [Key: Value]

    @inlinable init() { values = [:] }

    @inlinable var isEmpty: Bool { values.isEmpty }

    @inlinable
    mutating func add(_ input: consuming (key: Key, value: Value)) -> (accepted: Bool, leftover: (key: Key, value: Value)?) {
        let (key, value) = input
        guard let replaced = values.updateValue(value, forKey: key) else { return (true, nil) }
        return (true, (key, replaced))
    }

    @inlinable
    mutating func take() -> [Key: Value] {
        let batch = values
        // The same keys usually come back: reserve once per delivery instead
        // of regrowing (and reallocating several times) while the lock is held.
        values = Dictionary(minimumCapacity: batch.count)
        return batch
    }
}
