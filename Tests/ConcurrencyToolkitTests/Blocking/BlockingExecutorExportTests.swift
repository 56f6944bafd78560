import Dispatch
import Foundation
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@testable import ConcurrencyToolkit
import TestSupport

/// What a `BlockingExecutor` records reaches the exports: a real recording
/// of jobs on a width-2 executor shows work on both lane threads, and a row
/// per lane. (Hand-built traces test the exports themselves, in
/// Diagnostics/.)
@Suite(.timeLimit(.minutes(2))) struct TracedExportTests {
    /// Two jobs that each wait for the other to start: they can only finish
    /// by running at once, on the executor's two lane threads.
    private func recordTwoJobsSideBySide() async throws -> (trace: Trace, lanes: Set<UInt64>) {
        let executor = BlockingExecutor(width: 2, label: "pair")
        let (first, second) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let (threads, trace) = try await withTraceRecording {
            try await [(first, second), (second, first)].concurrentMap(maxConcurrency: 2) { mine, other in
                try await executor.run { () -> UInt64 in
                    letTheWaiterSuspendUnderThreadSanitizer()
                    mine.signal()
                    // Bounded: a broken executor (width 1) fails here instead of hanging.
                    guard other.wait(timeout: .now() + 60) == .success else { return 0 }
                    span("rendezvous") {}
                    return CurrentThread.id
                }
            }
        }
        await executor.shutdown()
        #expect(!threads.contains(0), "the two jobs never ran at once")
        return (trace, Set(threads))
    }

    @Test func chromeJSONHasCompleteEventsOnAtLeastTwoThreads() async throws {
        let (trace, lanes) = try await recordTwoJobsSideBySide()
        #expect(lanes.count == 2)
        let data = Data(trace.chromeTraceJSON().utf8)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let events = try #require(root["traceEvents"] as? [[String: Any]])
        let complete = events.filter { $0["ph"] as? String == "X" }
        let jobThreads = Set(complete.filter { $0["cat"] as? String == "job" }.compactMap { $0["tid"] as? Int })
        #expect(jobThreads == Set(lanes.map { Int($0) }))
        let spanThreads = Set(complete.filter { $0["name"] as? String == "rendezvous" }.compactMap { $0["tid"] as? Int })
        #expect(spanThreads == jobThreads)
        let names = events.filter { $0["name"] as? String == "thread_name" }
            .compactMap { ($0["args"] as? [String: Any])?["name"] as? String }
        #expect(names.contains("pair lane 0"))
        #expect(names.contains("pair lane 1"))
    }

    @Test func svgHasARowPerLaneServedByItsThread() async throws {
        let (trace, lanes) = try await recordTwoJobsSideBySide()
        let reader = try SVGReader.read(trace.svgTimeline(title: "two lanes"))
        let laneRows = reader.rows.filter { $0.name.hasPrefix("pair lane ") }
        #expect(laneRows.map(\.name).sorted() == ["pair lane 0", "pair lane 1"])
        #expect(Set(laneRows.flatMap(\.threads)) == Set(lanes.map { "\($0)" }))
        for row in laneRows {
            #expect(row.bars.filter { $0.hasPrefix("pair job") }.count == 1)
            #expect(row.bars.filter { $0.hasPrefix("rendezvous") }.count == 1)
        }
    }
}
