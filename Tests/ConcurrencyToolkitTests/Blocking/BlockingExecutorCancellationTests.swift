@testable import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Dispatch
import Foundation
import Testing
import TestSupport

/// Cancellation before a job starts removes it; while it runs, the job sees it.
@Suite(.timingSensitive) struct BlockingExecutorCancellationTests {
    @Test func cancellingAQueuedJobThrowsAtOnceAndTheJobNeverRuns() async throws {
        let executor = BlockingExecutor(width: 1, label: "cancel-queued")
        let gate = DispatchSemaphore(value: 0)
        let blocker = Task { try await executor.run { gate.wait() } }
        let watchdogFired = Counter()
        let guardDog = watchdog(signalling: gate, after: .seconds(20), fired: watchdogFired)
        #expect(await eventually(within: .seconds(30)) { executor.metrics.running == 1 })

        let ran = Counter()
        let queued = Task { try await executor.run { ran.increment() } }
        #expect(await eventually(within: .seconds(30)) { executor.metrics.queued == 1 })

        let cancelledAt = ContinuousClock.now
        queued.cancel()
        await #expect(throws: CancellationError.self) { try await queued.value }
        // The only lane is still blocked, so the caller can only have been
        // resumed by the removal itself, not by the job running (the watchdog
        // frees the lane only after 20 s, and then watchdogFired says so). Under
        // ThreadSanitizer on a busy 2-core machine the removal took 8.8 s once.
        #expect(ContinuousClock.now - cancelledAt < .seconds(15))
        #expect(executor.metrics.running == 1)
        #expect(executor.metrics.queued == 0)
        #expect(executor.metrics.cancelled == 1)
        #expect(watchdogFired.count == 0)  // the blocker was still blocking: the job was removed, not run

        guardDog.cancel()
        gate.signal()
        try await blocker.value
        await executor.shutdown()
        #expect(ran.count == 0)
    }

    @Test func aCallerCancelledBeforeRunIsRefusedWithoutRunning() async {
        let executor = BlockingExecutor(width: 1, label: "cancel-early")
        let ran = Counter()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await executor.run { ran.increment() }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        await executor.shutdown()
        #expect(ran.count == 0)
        #expect(executor.metrics.cancelled == 1)
        #expect(executor.metrics.completed == 0)
    }

    @Test func aRunningJobSeesCancellationThroughItsContext() async throws {
        let executor = BlockingExecutor(width: 1, label: "cancel-running")
        let started = Counter()
        let task = Task {
            try await executor.run { context in
                started.increment()
                let giveUp = ContinuousClock.now + .seconds(30)
                while !context.isCancelled && ContinuousClock.now < giveUp { usleep(1_000) }
                return context.isCancelled
            }
        }
        #expect(await eventually(within: .seconds(30)) { started.count == 1 })
        task.cancel()
        #expect(try await task.value)  // the body ran to the end and saw the cancellation
        #expect(executor.metrics.completed == 1)
        #expect(executor.metrics.cancelled == 0)  // it ran: not counted as cancelled
        await executor.shutdown()
    }

    @Test func checkCancellationThrowsCancellationErrorToTheCaller() async {
        let executor = BlockingExecutor(width: 1, label: "check")
        let started = Counter()
        let task = Task {
            try await executor.run { context in
                started.increment()
                let giveUp = ContinuousClock.now + .seconds(30)
                while ContinuousClock.now < giveUp {
                    try context.checkCancellation()
                    usleep(1_000)
                }
            }
        }
        #expect(await eventually(within: .seconds(30)) { started.count == 1 })
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(executor.metrics.failed == 1)
        await executor.shutdown()
    }

    @Test func anInterruptActionUnblocksASystemCall() async throws {
        let executor = BlockingExecutor(width: 1, label: "interrupt")
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let interrupted = Counter()
        let started = Counter()
        let task = Task {
            try await executor.run { context in
                context.onCancel {
                    interrupted.increment()
                    close(writeEnd)  // the reader sees end-of-file at once
                }
                started.increment()
                // poll with a 30 s timeout, so a missing interrupt fails the test instead of hanging it
                var wanted = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&wanted, 1, 30_000)
                var byte: UInt8 = 0
                return (ready, ready == 1 ? read(readEnd, &byte, 1) : -1)
            }
        }
        #expect(await eventually(within: .seconds(30)) { started.count == 1 })
        let cancelledAt = ContinuousClock.now
        task.cancel()
        let (ready, bytesRead) = try await task.value
        #expect(ready == 1)
        #expect(bytesRead == 0)  // end-of-file: the write end was closed by the interrupt
        // Without the interrupt, poll waits its whole 30 s; under
        // ThreadSanitizer on a busy machine the interrupted one took 11.1 s once.
        #expect(ContinuousClock.now - cancelledAt < .seconds(20))
        #expect(interrupted.count == 1)
        if interrupted.count == 0 { close(writeEnd) }
        close(readEnd)
        await executor.shutdown()
    }

    @Test func anInterruptNeverRunsAfterTheJobFinished() async throws {
        let executor = BlockingExecutor(width: 1, label: "interrupt-late")
        let interrupted = Counter()
        let finished = Counter()
        let gate = DispatchSemaphore(value: 0)
        let task = Task {
            let value = try await executor.run { context in
                context.onCancel { interrupted.increment() }
                return 1
            }
            finished.increment()
            _ = await withCheckedContinuation { c in DispatchQueue.global().async { gate.wait(); c.resume(returning: 0) } }
            return value
        }
        #expect(await eventually(within: .seconds(30)) { finished.count == 1 })
        task.cancel()  // after the job returned: its interrupt must stay silent
        gate.signal()
        #expect(try await task.value == 1)
        #expect(interrupted.count == 0)
        await executor.shutdown()
    }
}
