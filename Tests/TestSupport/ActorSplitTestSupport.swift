import Foundation

/// A global actor other than the main one, to show deliveries land on the handler's actor.
@globalActor
package actor TestLogActor {
    package static let shared = TestLogActor()
}

/// Runs `body` on a fresh OS thread (not the cooperative pool), like a C
/// library's callback thread, and returns when it finished.
package func onBackgroundThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        let thread = Thread {
            body()
            done.resume()
        }
        thread.start()
    }
}

/// Runs `body(index)` on `count` OS threads at once and returns when all finished.
package func onBackgroundThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) async {
    await withTaskGroup(of: Void.self) { group in
        for index in 0..<count {
            group.addTask { await onBackgroundThread { body(index) } }
        }
    }
}

/// How many adjacent pairs go backwards: the "progress jumps back" count.
package func backwardSteps(_ values: [Int]) -> Int {
    zip(values, values.dropFirst()).filter { $0 > $1 }.count
}
