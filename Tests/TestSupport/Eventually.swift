/// Polls `condition` every millisecond until it holds or `limit` passes, and
/// returns whether it held: for the rare state a test cannot await directly
/// (a task having ended, a metric settling). Shared by every suite.
package func eventually(
    isolation: isolated (any Actor)? = #isolation, within limit: Duration = .seconds(20), _ condition: () -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now.advanced(by: limit)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}
