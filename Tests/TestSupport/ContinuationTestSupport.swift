import ConcurrencyToolkit
import Synchronization

/// Somewhere a test can park a continuation that another task or thread resumes.
final class Parking<Success: Sendable>: Sendable {
    private let slot = Lock<SafeContinuation<Success, any Error>?>(nil)

    func park(_ continuation: SafeContinuation<Success, any Error>) {
        slot.withLock { $0 = continuation }
    }

    /// Hands out the parked continuation (and forgets it), if one is parked now.
    func takeNow() -> SafeContinuation<Success, any Error>? {
        slot.withLock { $0.take() }
    }

    var isParked: Bool { slot.withLock { $0 != nil } }

    /// Hands out the parked continuation (and forgets it), once one is parked.
    func take(within limit: Duration = .seconds(10)) async -> SafeContinuation<Success, any Error>? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let parked = slot.withLock({ $0.take() }) { return parked }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return nil
    }
}

/// Runs `operation` and returns its outcome as a `Result`, so a test can
/// assert on the error a waiter received.
func outcome<T>(_ operation: () async throws -> T) async -> Result<T, any Error> {
    do { return .success(try await operation()) } catch { return .failure(error) }
}

/// Keeps continuations alive (so they time out instead of leaking) until released.
final class Keeper<Success: Sendable>: Sendable {
    private let kept = Lock<[SafeContinuation<Success, any Error>]>([])
    func keep(_ continuation: SafeContinuation<Success, any Error>) { kept.withLock { $0.append(continuation) } }
    var count: Int { kept.withLock { $0.count } }
    func release() -> [SafeContinuation<Success, any Error>] { kept.withLock { let all = $0; $0 = []; return all } }
}
