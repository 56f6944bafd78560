/// Runs `operation` and returns its outcome as a `Result`, so a test can
/// assert on the error a waiter received.
package func outcome<T>(_ operation: () async throws -> T) async -> Result<T, any Error> {
    do { return .success(try await operation()) } catch { return .failure(error) }
}
