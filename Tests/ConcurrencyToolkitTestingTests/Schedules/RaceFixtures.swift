import ConcurrencyToolkit
import TestSupport

// The three bug shapes of Documentation/MakingRacesReproducible.md, each with
// its correct version: what the schedule tests explore.

struct Overdrawn: Error, CustomStringConvertible {
    let balance: Int
    var description: String { "overdrawn: balance \(balance)" }
}

struct LoadedTwice: Error, CustomStringConvertible {
    let loads: Int
    var description: String { "loaded \(loads) times" }
}

/// Check, await, act: two `withdraw(80)` on 100 can both pass the check.
actor Account {
    private(set) var balance = 100
    let checksAgainAfterAwait: Bool

    init(checksAgainAfterAwait: Bool = false) { self.checksAgainAfterAwait = checksAgainAfterAwait }

    func withdraw(_ amount: Int) async {
        guard balance >= amount else { return }
        await audit(amount)   // the actor is free for others here
        if checksAgainAfterAwait && balance < amount { return }
        balance -= amount
    }

    private nonisolated func audit(_ amount: Int) async { await Task.yield() }
}

/// Two withdrawals at once, then the balance checked.
@Sendable func withdrawTwiceAtOnce(correct: Bool = false) async throws {
    let account = Account(checksAgainAfterAwait: correct)
    async let first: Void = account.withdraw(80)
    async let second: Void = account.withdraw(80)
    _ = await (first, second)
    let balance = await account.balance
    if balance < 0 { throw Overdrawn(balance: balance) }
}

/// An actor cache whose load suspends: a second caller arrives meanwhile.
actor Cache {
    private enum Entry {
        case loading([CheckedContinuation<Int, Never>])
        case ready(Int)
    }

    private var entries: [String: Entry] = [:]
    private var naive: [String: Int] = [:]
    private(set) var loads = 0
    let sharesTheLoad: Bool

    init(sharesTheLoad: Bool = false) { self.sharesTheLoad = sharesTheLoad }

    func value(for key: String) async -> Int {
        sharesTheLoad ? await shared(key) : await unshared(key)
    }

    private func unshared(_ key: String) async -> Int {
        if let value = naive[key] { return value }
        loads += 1
        let value = await Cache.load(key)
        naive[key] = value
        return value
    }

    private func shared(_ key: String) async -> Int {
        switch entries[key] {
        case .ready(let value): return value
        case .loading(let waiters):
            return await withCheckedContinuation { entries[key] = .loading(waiters + [$0]) }
        case nil:
            entries[key] = .loading([])
            loads += 1
            let value = await Cache.load(key)
            guard case .loading(let waiters) = entries[key] else { return value }
            entries[key] = .ready(value)
            for waiter in waiters { waiter.resume(returning: value) }
            return value
        }
    }

    private static func load(_ key: String) async -> Int {
        await Task.yield()
        return key.count
    }
}

@Sendable func loadTwiceAtOnce(correct: Bool = false) async throws {
    let cache = Cache(sharesTheLoad: correct)
    async let first = cache.value(for: "avatar")
    async let second = cache.value(for: "avatar")
    _ = await (first, second)
    let loads = await cache.loads
    if loads != 1 { throw LoadedTwice(loads: loads) }
}

/// A callback API whose completion and cancellation can both call back; the
/// correct one lets the first of them win. An outcome that comes before
/// `start` is delivered by `start`.
final class CallbackRequest: Sendable {
    private enum Outcome {
        case completed(Int)
        case cancelled
    }

    private struct State {
        var done: (@Sendable (Int) -> Void)?
        var cancelled: (@Sendable () -> Void)?
        var outcome: Outcome?
    }

    private let state = Lock(State())
    let firstWins: Bool

    init(firstWins: Bool) { self.firstWins = firstWins }

    func start(done: @escaping @Sendable (Int) -> Void, cancelled: @escaping @Sendable () -> Void) {
        let early = state.withLock { state -> Outcome? in
            state.done = done
            state.cancelled = cancelled
            return state.outcome
        }
        switch early {
        case .completed(let value): done(value)
        case .cancelled: cancelled()
        case nil: break
        }
    }

    func complete(_ value: Int) {
        let done = state.withLock { state -> (@Sendable (Int) -> Void)? in
            if firstWins && state.outcome != nil { return nil }
            if state.outcome == nil { state.outcome = .completed(value) }
            return state.done
        }
        done?(value)
    }

    func cancel() {
        let cancelled = state.withLock { state -> (@Sendable () -> Void)? in
            if firstWins && state.outcome != nil { return nil }
            if state.outcome == nil { state.outcome = .cancelled }
            return state.cancelled
        }
        cancelled?()
    }
}

func fetch(_ request: CallbackRequest) async throws -> Int {
    try await withTaskCancellationHandler {
        try await withSafeThrowingContinuation { (continuation: SafeContinuation<Int, any Error>) in
            request.start(
                done: { continuation.resume(returning: $0) },
                cancelled: { continuation.resume(throwing: CancellationError()) })
        }
    } onCancel: {
        request.cancel()
    }
}

/// A fetch cancelled while its completion is on its way.
@Sendable func completeRacingCancel(correct: Bool = false) async throws {
    let request = CallbackRequest(firstWins: correct)
    await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { _ = try await fetch(request) }
        group.addTask {
            await Task.yield()
            request.complete(42)
        }
        await Task.yield()
        group.cancelAll()
        while case .some = await group.nextResult() {}
    }
}
