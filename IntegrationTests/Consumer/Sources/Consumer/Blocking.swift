import ConcurrencyToolkit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking call, as a user's own helper: `nonisolated`, so that under
/// approachable concurrency (main actor by default) a lane may call it.
nonisolated func slowSquare(_ number: Int) -> Int {
    usleep(2_000)  // stands in for a blocking read(2) or a database call
    return number * number
}

/// BlockingExecutor as the README shows it: blocking work on lanes, many
/// callers at once, cancellation of a queued job, and shutdown.
func checkBlocking() async throws {
    let io = BlockingExecutor(width: 2, label: "consumer-io")
    let seven = try await io.run { context in
        try context.checkCancellation()
        return slowSquare(7)
    }
    check(seven == 49, "io.run returned \(seven)")

    let squares = try await Array(1...16).concurrentMap(maxConcurrency: 4) { number in
        try await io.run { slowSquare(number) }
    }
    check(squares == (1...16).map { $0 * $0 }, "concurrentMap over io.run returned \(squares)")

    await io.shutdown()
    do {
        _ = try await io.run { slowSquare(1) }
        check(false, "io.run after shutdown() must throw")
    } catch is BlockingExecutor.ShutDownError {
        // expected: the executor says it was shut down, and the body never ran
    }
    print("consumer (\(consumerMode)): blocking work ran on lanes; run after shutdown threw")
}
