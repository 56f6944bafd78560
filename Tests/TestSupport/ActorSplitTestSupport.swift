import Foundation

/// Collects deliveries on the main actor and lets a test wait for a count
/// without sleeping.
@MainActor
final class Recorder<Element> {
    private(set) var values: [Element] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    func append(_ value: Element) {
        values.append(value)
        let ready = waiters.filter { values.count >= $0.count }
        waiters.removeAll { values.count >= $0.count }
        for waiter in ready { waiter.continuation.resume() }
    }

    func waitForCount(_ count: Int) async {
        if values.count >= count { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }
}

/// A global actor other than the main one, to show deliveries land on the handler's actor.
@globalActor
actor TestLogActor {
    static let shared = TestLogActor()
}

/// Runs `body` on a fresh OS thread (not the cooperative pool), like a C
/// library's callback thread, and returns when it finished.
func onBackgroundThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let thread = Thread {
            body()
            done.resume()
        }
        thread.start()
    }
}

/// Runs `body(index)` on `count` OS threads at once and returns when all finished.
func onBackgroundThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    await withTaskGroup(of: Void.self) { group in
        for index in 0..<count {
            group.addTask { await onBackgroundThread { body(index) } }
        }
    }
}

/// How many adjacent pairs go backwards: the "progress jumps back" count.
func backwardSteps(_ values: [Int]) -> Int {
    zip(values, values.dropFirst()).filter { $0 > $1 }.count
}
