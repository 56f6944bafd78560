#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ConcurrencyToolkit
import Dispatch
import Testing
import TestSupport

/// `onCancel` is the one hook that stops the callback API whichever way the
/// wait ends early: the task is cancelled, or the timeout passes. Exactly
/// once, and never after a resume.
@Suite(.timeLimit(.minutes(1))) struct StopTheWorkTests {
    /// A real child process, `/bin/sleep 120`, and a thread that reaps it.
    /// Long enough that it never ends on its own during a test: with
    /// `sleep 5` a loaded ThreadSanitizer run took 17 s to cancel, the child
    /// had exited normally by then, and the wait returned its status.
    final class Child: Sendable {
        let pid: pid_t
        private let exited = Lock<ContinuousClock.Instant?>(nil)

        init() throws {
            var pid: pid_t = 0
            let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("120"), nil]
            defer { arguments.forEach { free($0) } }
            // The test runner may block or ignore SIGTERM; the child gets the defaults.
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t(), all = sigset_t()
            sigemptyset(&none)
            sigfillset(&all)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            let status = posix_spawn(&pid, "/bin/sleep", nil, &attributes, arguments, environ)
            guard status == 0 else { throw SpawnFailed(errno: status) }
            self.pid = pid
        }

        struct SpawnFailed: Error { let errno: Int32 }

        /// Waits for the child on a thread of its own, then calls `done` with its status.
        func reap(_ done: @escaping @Sendable (Int32) -> Void) {
            DispatchQueue(label: "reaper").async {
                var status: Int32 = 0
                while waitpid(self.pid, &status, 0) == -1 && errno == EINTR {}
                self.exited.withLock { $0 = .now }
                done(status)
            }
        }

        var exitedAt: ContinuousClock.Instant? { exited.withLock { $0 } }

        func waitForExit(within limit: Duration) async -> ContinuousClock.Instant? {
            let deadline = ContinuousClock.now + limit
            while exitedAt == nil && ContinuousClock.now < deadline {
                try? await Task.sleep(for: .milliseconds(10))
            }
            return exitedAt
        }

        /// Test hygiene only: never leave a child behind, whatever happened.
        func terminate() { _ = kill(pid, SIGKILL) }
    }

    @Test func timeoutStopsTheChildProcessOnce() async throws {
        let child = try Child()
        defer { child.terminate() }
        let stops = Counter()
        let start = ContinuousClock.now
        let timeout = Duration.milliseconds(300)
        let result = await outcome {
            try await withSafeThrowingContinuation(timeout: timeout, onCancel: {
                stops.increment()
                kill(child.pid, SIGTERM)
            }) { (continuation: SafeContinuation<Int32, any Error>) in
                child.reap { status in continuation.resume(returning: status) }
            }
        }
        #expect(throws: SafeContinuationError.timedOut) { try result.get() }
        let exitedAt = await child.waitForExit(within: .seconds(10))
        let exitedAfterDeadline = exitedAt.map { $0 - (start + timeout) }
        #expect(exitedAfterDeadline != nil && exitedAfterDeadline! < .seconds(1),
                "the child must be gone within 1 s of the deadline; it exited \(String(describing: exitedAfterDeadline)) after it")
        #expect(stops.count == 1)
    }

    @Test func cancellationStopsTheChildProcessOnce() async throws {
        let child = try Child()
        defer { child.terminate() }
        let stops = Counter()
        let started = Counter()
        let waiter = Task {
            await outcome {
                try await withSafeThrowingContinuation(timeout: .seconds(30), onCancel: {
                    stops.increment()
                    kill(child.pid, SIGTERM)
                }) { (continuation: SafeContinuation<Int32, any Error>) in
                    child.reap { status in continuation.resume(returning: status) }
                    started.increment()
                }
            }
        }
        while started.count == 0 { try await Task.sleep(for: .milliseconds(5)) }
        let cancelledAt = ContinuousClock.now
        waiter.cancel()
        let result = await waiter.value
        #expect(throws: CancellationError.self) { try result.get() }
        let exitedAt = await child.waitForExit(within: .seconds(10))
        #expect(exitedAt != nil && exitedAt! - cancelledAt < .seconds(1))
        #expect(stops.count == 1)
    }

    @Test func noStopAfterAResumeEvenWhenTheTimeoutPassesLater() async throws {
        let stops = Counter()
        let value = try await withSafeThrowingContinuation(timeout: .milliseconds(20), onCancel: { stops.increment() }) {
            (continuation: SafeContinuation<Int, any Error>) in
            continuation.resume(returning: 1)
        }
        try await Task.sleep(for: .milliseconds(100))  // well past the deadline
        #expect(value == 1)
        #expect(stops.count == 0)
    }

    @Test func timeoutStopsTheWorkOnceAmongManyWaiters() async throws {
        let stops = Counter()
        let keeper = Collected<SafeContinuation<Int, any Error>>()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<200 {
                group.addTask {
                    _ = await outcome {
                        try await withSafeThrowingContinuation(timeout: .milliseconds(10), onCancel: { stops.increment() }) {
                            keeper.append($0)
                        }
                    }
                }
            }
        }
        // Late resumes after the timeout are dropped and stop nothing.
        for continuation in keeper.removeAll() { #expect(!continuation.resume(returning: 0)) }
        #expect(stops.count == 200)
    }
}
