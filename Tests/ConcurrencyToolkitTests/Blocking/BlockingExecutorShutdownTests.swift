@testable import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Dispatch
import Testing
import TestSupport

/// shutdown(): running jobs finish, queued and later ones fail, nothing leaks.
@Suite struct BlockingExecutorShutdownTests {
    @Test func runningJobsFinishQueuedJobsFailAndShutdownWaitsForTheLanes() async throws {
        let executor = BlockingExecutor(width: 2, label: "importer")
        let gate = DispatchSemaphore(value: 0)
        let shutdownReturned = Counter()

        let ((running, queued), misuses) = try await withContinuationMisuseRecorded {
            let running = (0..<2).map { i in Task { try await executor.run { gate.wait(); return i } } }
            #expect(await eventually(within: .seconds(30)) { executor.metrics.running == 2 })
            let queued = (0..<3).map { i in Task { try await executor.run { i } } }
            #expect(await eventually(within: .seconds(30)) { executor.metrics.queued == 3 })

            let shutdown = Task {
                await executor.shutdown()
                shutdownReturned.increment()
            }
            for task in queued {
                await #expect(throws: BlockingExecutor.ShutDownError(label: "importer", wasQueued: true)) {
                    try await task.value
                }
            }
            // Queued jobs failed while both lanes are still busy: shutdown must still wait.
            try await Task.sleep(for: .milliseconds(50))
            #expect(shutdownReturned.count == 0)
            #expect(executor.metrics.running == 2)

            gate.signal()
            gate.signal()
            var values: [Int] = []
            for task in running { values.append(try await task.value) }
            await shutdown.value
            return (values, queued.count)
        }
        #expect(running.sorted() == [0, 1])
        #expect(queued == 3)
        #expect(shutdownReturned.count == 1)
        #expect(misuses.isEmpty)
        let m = executor.metrics
        #expect(m.running == 0)
        #expect(m.completed == 2)
        #expect(m.rejected == 3)
    }

    @Test func runAfterShutdownThrowsAnErrorNamingTheExecutor() async throws {
        let executor = BlockingExecutor(width: 1, label: "thumbnails")
        await executor.shutdown()
        let ran = Counter()
        do {
            try await executor.run { ran.increment() }
            Issue.record("run after shutdown must throw")
        } catch let error as BlockingExecutor.ShutDownError {
            #expect(error == BlockingExecutor.ShutDownError(label: "thumbnails", wasQueued: false))
            #expect(error.description.contains("'thumbnails'"))
            #expect(error.description.contains("after shutdown()"))
        }
        #expect(ran.count == 0)
        #expect(executor.metrics.rejected == 1)
        await executor.shutdown()  // a second call returns too
    }

    @Test func shutdownOfAnIdleExecutorReturnsAtOnce() async {
        let executor = BlockingExecutor(width: 4, label: "idle")
        let elapsed = await ContinuousClock().measure { await executor.shutdown() }
        #expect(elapsed < .seconds(5))
    }
}
