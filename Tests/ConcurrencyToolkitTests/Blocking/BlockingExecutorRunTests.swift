@testable import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Dispatch
import Foundation
import Testing
import TestSupport

/// What `run` returns and throws, where it runs, and its configuration edges.
@Suite struct BlockingExecutorRunTests {
    struct DiskFull: Error, Equatable { var path: String }
    final class ReferenceError: Error, Sendable {}

    @Test func bothClosureFormsTypeCheckWithoutAnnotations() async throws {
        let executor = BlockingExecutor(width: 2, label: "forms")
        let plain = try await executor.run { 42 }
        let withContext = try await executor.run { context in context.isCancelled ? -1 : 7 }
        let shorthand = try await executor.run { $0.priority }
        #expect(plain == 42)
        #expect(withContext == 7)
        #expect(shorthand == Task.currentPriority)
        #expect(executor.metrics.completed == 3)
        await executor.shutdown()
    }

    @Test func errorsReachTheCallerUnchanged() async {
        let executor = BlockingExecutor(width: 1, label: "errors")
        await #expect(throws: DiskFull(path: "/var/log/app.log")) {
            try await executor.run { () throws -> Int in throw DiskFull(path: "/var/log/app.log") }
        }
        let original = ReferenceError()
        do {
            try await executor.run { _ in throw original }
            Issue.record("the error was swallowed")
        } catch let error as ReferenceError {
            #expect(error === original)  // the very same instance, not a copy or a wrapper
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(executor.metrics.failed == 2)
        await executor.shutdown()
    }

    @MainActor @Test func neverRunsOnTheMainThreadEvenFromMainActorCode() async throws {
        let executor = BlockingExecutor(width: 1, label: "main")
        // The test is only meaningful if the caller really is on the main queue.
        #expect(isOnMainQueue())
        let (onMainQueue, onMainThread, onLane) = try await executor.run {
            (isOnMainQueue(), Thread.isMainThread, executor.isRunningOnLane)
        }
        #expect(!onMainQueue)
        #expect(!onMainThread)
        #expect(onLane)
        #expect(isOnMainQueue())  // and the caller is back on the main actor
        await executor.shutdown()
    }

    @Test func theBodyRunsOnALaneNotInTheCallersThreadPool() async throws {
        let executor = BlockingExecutor(width: 3, label: "where")
        let other = BlockingExecutor(width: 1, label: "other")
        #expect(!executor.isRunningOnLane)
        #expect(try await executor.run { executor.isRunningOnLane && !other.isRunningOnLane })
        await executor.shutdown()
        await other.shutdown()
    }

    @Test func callerPriorityReachesTheJobContext() async {
        let executor = BlockingExecutor(width: 1, label: "priority")
        // A detached task's result is delivered through a continuation, not
        // awaited, so its priority is not escalated by the test's own task.
        let (mine, seen) = await withCheckedContinuation { continuation in
            Task.detached(priority: .background) {
                let mine = Task.currentPriority
                let seen = try? await executor.run { $0.priority }
                continuation.resume(returning: (mine, seen))
            }
        }
        #expect(seen == mine)
        #expect(mine == .background)
        await executor.shutdown()
    }

    @Test(arguments: [
        (TaskPriority.high, DispatchQoS.QoSClass.userInitiated),
        (.userInitiated, .userInitiated),
        (.medium, .default),
        (.low, .utility),
        (.utility, .utility),
        (.background, .background),
    ])
    func taskPriorityMapsToLaneQoS(priority: TaskPriority, qos: DispatchQoS.QoSClass) {
        #expect(DispatchQoS.QoSClass(priority) == qos)
    }

    @Test func sharedWidthComesFromTheEnvironmentOrTheDefault() {
        #expect(BlockingExecutor.sharedWidth(fromEnvironment: nil) == 64)
        #expect(BlockingExecutor.sharedWidth(fromEnvironment: "8") == 8)
        #expect(BlockingExecutor.sharedWidth(fromEnvironment: " 12 ") == 12)
        #expect(BlockingExecutor.sharedWidth(fromEnvironment: "0") == 64)
        #expect(BlockingExecutor.sharedWidth(fromEnvironment: "-3") == 64)
        #expect(BlockingExecutor.sharedWidth(fromEnvironment: "lots") == 64)
        let fromEnvironment = ProcessInfo.processInfo.environment["CONCURRENCY_TOOLKIT_BLOCKING_WIDTH"]
        #expect(BlockingExecutor.shared.width == BlockingExecutor.sharedWidth(fromEnvironment: fromEnvironment))
    }

    @Test func sharedExecutorRunsJobs() async throws {
        #expect(try await BlockingExecutor.shared.run { BlockingExecutor.shared.isRunningOnLane })
    }

    #if os(macOS) || os(Linux)  // exit tests: Apple's other platforms have none
    @Test func widthBelowOneStopsTheProcessNamingTheValue() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = BlockingExecutor(width: 0, label: "broken")
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("width: 0"))
    }
    #endif

    #if os(macOS) || os(Linux)  // exit tests: Apple's other platforms have none
    @Test func shuttingDownTheSharedExecutorStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            await BlockingExecutor.shared.shutdown()
        }
    }
    #endif
}
