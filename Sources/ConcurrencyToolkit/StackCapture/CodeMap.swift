#if os(Linux)
/// Where the loaded code is: the executable ranges of every image, sorted,
/// and which of them are the concurrency runtime's. Listed on first use;
/// listed again (at most once a second) when a caller met an address in no
/// image, so a library loaded later is found.
final class CodeMap: Sendable {
    static let shared = CodeMap()

    struct Snapshot: Sendable {
        fileprivate var ranges: [Range<UInt>] = []
        fileprivate var isRuntime: [Bool] = []
        fileprivate var listedAt: UInt64 = 0

        func isCode(_ address: UInt) -> Bool { index(of: address) != nil }

        func isConcurrencyRuntime(_ address: UInt) -> Bool { index(of: address).map { isRuntime[$0] } ?? false }

        private func index(of address: UInt) -> Int? {
            var low = 0
            var high = ranges.count
            while low < high {
                let middle = (low + high) / 2
                if ranges[middle].upperBound <= address { low = middle + 1 } else { high = middle }
            }
            return low < ranges.count && ranges[low].contains(address) ? low : nil
        }
    }

    private let current = Lock(Snapshot())

    private init() { refresh() }

    /// The ranges as last listed: one lock, one retain.
    var snapshot: Snapshot { current.withLock { $0 } }

    /// Lists the images again unless that was done less than a second ago.
    /// True if it listed them.
    @discardableResult
    func refreshIfStale() -> Bool {
        let now = MonotonicClock.now
        guard current.withLock({ now &- $0.listedAt >= 1_000_000_000 }) else { return false }
        refresh()
        return true
    }

    private func refresh() {
        var entries: [(range: Range<UInt>, isRuntime: Bool)] = []
        for image in LoadedImages.current() {
            let isRuntime = image.name.hasPrefix("libswift_Concurrency.")
            entries += image.executableRanges.map { ($0, isRuntime) }
        }
        entries.sort { $0.range.lowerBound < $1.range.lowerBound }
        let snapshot = Snapshot(ranges: entries.map(\.range), isRuntime: entries.map(\.isRuntime), listedAt: MonotonicClock.now)
        current.withLock { $0 = snapshot }
    }
}
#endif
