@testable import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Foundation
import Testing
import TestSupport

#if os(Linux)  // measures threads and memory through /proc
extension TimingSensitive {
    /// Timeouts cost no thread and no task: 100,000 can wait at once.
    @Suite struct ScaleTests {
        static let count = 100_000

        @Test func hundredThousandPendingContinuationsWithTimeouts() async throws {
            let threadsBefore = try Self.threadCount()
            let memoryBefore = try Self.residentBytes()
            let parked = Collected<SafeContinuation<Int, any Error>>()
            let results = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<Self.count {
                    group.addTask {
                        (try? await withSafeThrowingContinuation(timeout: .seconds(120)) { parked.append($0) }) ?? -1
                    }
                }
                let allParked = await eventually(within: .seconds(120)) { parked.count == Self.count }
                #expect(allParked)
                // Measured while all are waiting: memory per waiter and threads.
                let memoryPerWaiter = ((try? Self.residentBytes()) ?? 0) / Self.count - memoryBefore / Self.count
                let extraThreads = ((try? Self.threadCount()) ?? 0) - threadsBefore
                #expect(TimeoutScheduler.shared.queuedCount >= Self.count)
                // Other suites run in parallel and start Dispatch threads; a thread
                // per timeout would be 100,000.
                #expect(extraThreads < 1_000, "timeouts must not take a thread each (\(extraThreads) new threads)")
                #expect(memoryPerWaiter < 16 * 1024, "\(memoryPerWaiter) bytes per waiting continuation")
                for (n, continuation) in parked.removeAll().enumerated() { continuation.resume(returning: n) }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(results.count == Self.count)
            #expect(!results.contains(-1), "resumed in time: none timed out")
            // Finished and dropped continuations leave the heap: nothing piles up.
            #expect(TimeoutScheduler.shared.queuedCount < 1_000)
        }

        @Test func tenThousandTimeoutsFireFromOneTimer() async throws {
            let threadsBefore = try Self.threadCount()
            let kept = Collected<SafeContinuation<Int, any Error>>()
            let clock = ContinuousClock()
            let start = clock.now
            let timedOut = await withTaskGroup(of: Bool.self) { group in
                for _ in 0..<10_000 {
                    group.addTask {
                        let result = await outcome { try await withSafeThrowingContinuation(timeout: .milliseconds(300)) { kept.append($0) } }
                        return (try? result.get()) == nil
                    }
                }
                return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(timedOut == 10_000)
            #expect(clock.now - start >= .milliseconds(300))
            #expect(try Self.threadCount() - threadsBefore < 1_000)
            _ = kept.removeAll()
        }

        static func residentBytes() throws -> Int {
            let statm = try String(contentsOfFile: "/proc/self/statm", encoding: .utf8).split(separator: " ")
            return Int(statm[1])! * Int(sysconf(Int32(_SC_PAGESIZE)))
        }

        static func threadCount() throws -> Int {
            let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            let line = status.split(separator: "\n").first { $0.hasPrefix("Threads:") }!
            return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces))!
        }
    }
}
#endif
