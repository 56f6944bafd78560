@testable import ConcurrencyToolkit
import Foundation
import Testing
import TestSupport

/// `withTaskExecutorPreference` with a BlockingExecutor, and its SE-0417 pitfall.
@Suite struct BlockingExecutorTaskExecutorTests {
    /// Nonisolated and async: under a preference, its slices run on the preferred executor.
    nonisolated static func whereDoesThisRun(_ executor: BlockingExecutor) async -> Bool {
        await Task.yield()  // also after a suspension
        return executor.isRunningOnLane
    }

    @Test func preferenceRunsNonisolatedAsyncWorkOnTheLanes() async {
        let executor = BlockingExecutor(width: 2, label: "preferred")
        #expect(await Self.whereDoesThisRun(executor) == false)
        let onLane = await withTaskExecutorPreference(executor) {
            await Self.whereDoesThisRun(executor)
        }
        #expect(onLane)
        #expect(executor.metrics.completed >= 1)
        await executor.shutdown()
    }

    @Test func childTasksInheritThePreference() async {
        let executor = BlockingExecutor(width: 4, label: "preferred-children")
        let onLanes = await withTaskExecutorPreference(executor) {
            await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 { group.addTask { await Self.whereDoesThisRun(executor) } }
                return await group.reduce(true) { $0 && $1 }
            }
        }
        #expect(onLanes)
        await executor.shutdown()
    }

    /// The SE-0417 rule, documented by a test: a task-executor preference does
    /// not move code isolated to an actor. A synchronous closure called from
    /// `@MainActor` code under the preference runs on the main actor, so a
    /// blocking call there blocks the main actor. `run` has no such pitfall.
    @MainActor @Test func synchronousClosureFromMainActorStaysOnTheMainActor() async throws {
        let executor = BlockingExecutor(width: 1, label: "pitfall")
        #expect(isOnMainQueue())
        let (closureOnMain, closureOnLane) = await withTaskExecutorPreference(executor) {
            (isOnMainQueue(), executor.isRunningOnLane)  // e.g. a blocking read here would freeze the UI
        }
        #expect(closureOnMain)
        #expect(!closureOnLane)

        let (runOnMain, runOnLane) = try await executor.run { (isOnMainQueue(), executor.isRunningOnLane) }
        #expect(!runOnMain)
        #expect(runOnLane)
        await executor.shutdown()
    }

    @Test func slicesEnqueuedAfterShutdownStillRun() async {
        let executor = BlockingExecutor(width: 1, label: "preferred-after-shutdown")
        await executor.shutdown()
        // The task must not hang: its slices go to the global concurrent executor.
        let onLane = await withTaskExecutorPreference(executor) {
            await Self.whereDoesThisRun(executor)
        }
        #expect(!onLane)
        #expect(executor.metrics.rejected >= 1)
    }
}
