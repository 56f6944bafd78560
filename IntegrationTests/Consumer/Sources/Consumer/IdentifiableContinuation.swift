import ConcurrencyToolkit
import Synchronization

// FlyingFox 0.27.1's IdentifiableContinuation (FlyingSocks), migrated the way
// the migration guide says: `withCheckedContinuation` → `withSafeContinuation`
// and `CheckedContinuation` → `SafeContinuation`, one word each, plus the
// pass-through of the caller's site (`function:`/`fileID:`/`line:`) so that a
// report names the line that called the wrapper, not the wrapper's line.

func withIdentifiableContinuation<T>(
    isolation: isolated (any Actor)? = #isolation,
    function: String = #function, fileID: String = #fileID, line: Int = #line,
    body: (IdentifiableContinuation<T, Never>) -> Void,
    onCancel handler: @Sendable (IdentifiableContinuation<T, Never>.ID) -> Void
) async -> T {
    let id = IdentifiableContinuation<T, Never>.ID()
    let state = Mutex((isStarted: false, isCancelled: false))
    nonisolated(unsafe) let body = body
    return await withTaskCancellationHandler {
        // The one-word rename: no `ifLeaked:` is needed for a generic T.
        await withSafeContinuation(isolation: isolation, function: function, fileID: fileID, line: line) {
            let continuation = IdentifiableContinuation(id: id, continuation: $0)
            body(continuation)
            let sendCancel = state.withLock {
                $0.isStarted = true
                return $0.isCancelled
            }
            if sendCancel { handler(id) }
        }
    } onCancel: {
        let sendCancel = state.withLock {
            $0.isCancelled = true
            return $0.isStarted
        }
        if sendCancel { handler(id) }
    }
}

nonisolated struct IdentifiableContinuation<T, E>: Sendable, Identifiable where E: Error {
    let id: ID

    final class ID: Hashable, Sendable {
        init() {}
        func hash(into hasher: inout Hasher) { ObjectIdentifier(self).hash(into: &hasher) }
        static func == (lhs: ID, rhs: ID) -> Bool { lhs === rhs }
    }

    init(id: ID, continuation: SafeContinuation<T, E>) {
        self.id = id
        self.continuation = continuation
    }

    private let continuation: SafeContinuation<T, E>

    // Each method passes its caller's site on: a double resume is reported
    // at the line that called `resume`, not at this file.
    func resume(returning value: sending T, function: String = #function, fileID: String = #fileID, line: Int = #line) {
        continuation.resume(returning: value, function: function, fileID: fileID, line: line)
    }

    func resume(with result: sending Result<T, E>, function: String = #function, fileID: String = #fileID, line: Int = #line) {
        continuation.resume(with: result, function: function, fileID: fileID, line: line)
    }

    func resume(throwing error: E, function: String = #function, fileID: String = #fileID, line: Int = #line) {
        continuation.resume(throwing: error, function: function, fileID: fileID, line: line)
    }

    func resume(function: String = #function, fileID: String = #fileID, line: Int = #line) where T == () {
        continuation.resume(function: function, fileID: fileID, line: line)
    }
}
