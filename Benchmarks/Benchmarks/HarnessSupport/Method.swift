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
    var load = [0.0]
    return getloadavg(&load, 1) == 1 ? load[0] : 0
}
