// What the plain harnesses (StallLatencyHarness, StallCaptureHarness) print
// their figures with, written once.

/// A duration in milliseconds.
public func milliseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1000 + Double(attoseconds) / 1e15
}

/// `value` rounded to `places` decimals, as text ("nan" for no value).
public func format(_ value: Double, places: Int = 1) -> String {
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    return "\((value * scale).rounded() / scale)"
}
