import ConcurrencyToolkit

/// What escaping `@Sendable` closures (handlers, job bodies, callbacks, the
/// bodies of continuations) hand to a test, from any thread: the one
/// thread-safe collector of every suite. Values, a count, continuations kept
/// alive until a test resumes them, all go through it.
///
/// ```swift
/// let delivered = Collected<Int>()
/// let progress = ThrottledProgress<Int>(interval: .milliseconds(10)) { @MainActor in delivered.append($0) }
/// ...
/// await delivered.waitForCount(3)          // no sleeping
/// #expect(delivered.values.last == 50)
///
/// let kept = Collected<SafeContinuation<Int, any Error>>()
/// let waiter = Task { try await withSafeThrowingContinuation { kept.append($0) } }
/// await kept.next()?.resume(returning: 1)  // once one is there
/// ```
package final class Collected<Element: Sendable>: Sendable {
    private struct State {
        var values: [Element]
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Lock<State>

    package init(_ values: [Element] = []) { state = Lock(State(values: values)) }

    /// Adds `value`, then resumes the ``waitForCount(_:)`` callers it satisfies (outside the lock).
    package func append(_ value: Element) {
        let ready = state.withLock { state in
            state.values.append(value)
            let count = state.values.count
            let ready = state.waiters.filter { count >= $0.count }
            state.waiters.removeAll { count >= $0.count }
            return ready
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    /// Every value so far, in the order appended.
    package var values: [Element] { state.withLock { $0.values } }
    package var count: Int { state.withLock { $0.values.count } }

    /// Hands out every value (and forgets them).
    @discardableResult
    package func removeAll() -> [Element] { state.withLock { state in defer { state.values = [] }; return state.values } }

    /// Hands out the first value (and forgets it), if there is one now.
    package func removeFirst() -> Element? {
        state.withLock { $0.values.isEmpty ? nil : $0.values.removeFirst() }
    }

    /// Hands out the first value (and forgets it) once there is one, or
    /// `nil` after `limit`. The default is long (30 s, like `eventually`'s
    /// 20 s): on CI's 2-core machine the whole test process has been seen to
    /// start no new task for 11 s while the serialized end-to-end tests and
    /// a sanitizer's first symbolication held the pool's threads, and a
    /// value that does come must not be reported missing.
    package func next(within limit: Duration = .seconds(30)) async -> Element? {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if let first = removeFirst() { return first }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return nil
    }

    /// Returns once at least `count` values were appended.
    package func waitForCount(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if state.values.count >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// A count that escaping closures bump: a ``Collected`` of nothing.
///
/// ```swift
/// let calls = Counter()
/// let continuation = ...; _ = try await withSafeThrowingContinuation(onCancel: { calls.increment() }) { ... }
/// #expect(calls.count == 1)
/// ```
package typealias Counter = Collected<Void>

extension Collected where Element == Void {
    package func increment() { append(()) }
}
