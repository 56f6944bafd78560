/// Queue waits in fixed logarithmic buckets: four per power of two, so a
/// percentile read from it is within 25% of the true value, whatever the
/// scale (nanoseconds to hours), and never outside the smallest and largest
/// waits recorded (kept exactly), so a p99 never reads above the maximum.
/// Fixed size (252 counters, allocated once with the executor); recording is
/// an index computation, an increment and two comparisons.
struct WaitHistogram {
    static let bucketCount = 252
    private(set) var counts: [UInt64]
    private(set) var total: UInt64 = 0
    private(set) var smallest: UInt64 = .max
    private(set) var largest: UInt64 = 0

    init() {
        counts = [UInt64](repeating: 0, count: Self.bucketCount)
    }

    mutating func record(_ nanoseconds: UInt64) {
        counts[Self.bucket(of: nanoseconds)] &+= 1
        total &+= 1
        smallest = min(smallest, nanoseconds)
        largest = max(largest, nanoseconds)
    }

    /// The bucket of `value`: values below 4 have one each; above, the
    /// exponent picks four buckets and the next two bits pick one of them.
    static func bucket(of value: UInt64) -> Int {
        if value < 4 { return Int(value) }
        let exponent = 63 - value.leadingZeroBitCount  // >= 2
        let sub = Int((value >> UInt64(exponent - 2)) & 3)
        return 4 * (exponent - 1) + sub
    }

    /// The middle of bucket `index`'s range.
    static func representative(of index: Int) -> UInt64 {
        if index < 4 { return UInt64(index) }
        let exponent = index / 4 + 1
        let sub = UInt64(index % 4)
        let lower = (4 + sub) << UInt64(exponent - 2)
        let width = UInt64(1) << UInt64(exponent - 2)
        return lower &+ width / 2
    }

    /// The wait below which a `fraction` (0...1) of the recorded waits lie,
    /// in nanoseconds: its bucket's middle, kept within the smallest and
    /// largest waits recorded; nil before the first record.
    func percentile(_ fraction: Double) -> UInt64? {
        guard total > 0 else { return nil }
        let rank = max(1, UInt64((Double(total) * min(max(fraction, 0), 1)).rounded(.up)))
        var seen: UInt64 = 0
        var index = counts.count - 1
        for candidate in counts.indices {
            seen &+= counts[candidate]
            if seen >= rank {
                index = candidate
                break
            }
        }
        return min(max(Self.representative(of: index), smallest), largest)
    }
}
