// What a trace recording says about each reporter's deliveries: the number of
// values the handler receives, which is what costs the receiving actor time.
// (The number of reports folded into a delivery is not counted: that would
// cost every `report` call something even when nothing records.)

extension LatestValueBuffer {
    @usableFromInline static var deliveryKind: TraceEvent.DeliveryKind { .progress }
    @usableFromInline static func valueCount(of _: Value) -> Int { 1 }
}

extension KeyedLatestBuffer {
    @usableFromInline static var deliveryKind: TraceEvent.DeliveryKind { .progress }
    @usableFromInline static func valueCount(of batch: [Key: Value]) -> Int { batch.count }
}

extension AccumulatingBuffer {
    @usableFromInline static var deliveryKind: TraceEvent.DeliveryKind { .batch }
    @usableFromInline static func valueCount(of batch: [Element]) -> Int { batch.count }
}
