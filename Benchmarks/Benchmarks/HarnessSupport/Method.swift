// The benchmark method's two readings the plain harnesses take themselves,
// written once and the same as Benchmarks/Scripts/method.py's: a median and
// the load average.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The median as method.py takes it (Python's `statistics.median`): the
/// middle value, or the mean of the two middle ones when the count is even;
/// nan for no values.
///
/// ```swift
/// median([3, 1, 2, 10])   // 2.5
/// ```
public func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// The 1-minute load average now, the figure common.sh records at the start
/// of every round (from /proc/loadavg on Linux); 0 where there is none.
public func loadAverage() -> Double {
    loadAverages().first ?? 0
}

/// The 1-, 5- and 15-minute load averages now, to two places; empty where
/// there are none.
///
/// ```swift
/// print(loadAverages().map { "\($0)" }.joined(separator: "/"))   // 0.52/1.14/2.66
/// ```
public func loadAverages() -> [Double] {
    var load = [0.0, 0.0, 0.0]
    guard getloadavg(&load, 3) == 3 else { return [] }
    return load.map { ($0 * 100).rounded() / 100 }
}
