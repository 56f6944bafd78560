/// A duration in seconds, as a `Double` (for reports and logs).
///
/// ```swift
/// let elapsed = ContinuousClock.now - start
/// print("took \(elapsed.seconds) s")
/// ```
extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
