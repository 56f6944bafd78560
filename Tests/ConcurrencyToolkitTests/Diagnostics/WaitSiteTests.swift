import ConcurrencyToolkit
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TestSupport

/// Every toolkit API that waits names the caller's line, not its own, in a
/// trace, its summary and the pending registry. `BlockingExecutor`'s waits
/// are in Blocking/BlockingExecutorWaitSiteTests.swift.
@Suite(.timeLimit(.minutes(1))) struct WaitSiteTests {
    static let file = "ConcurrencyToolkitTests/WaitSiteTests.swift"

    /// `file:line` of every continuation wait in `trace`.
    func waitSites(_ trace: Trace) -> [String] {
        trace.events.compactMap { if case .continuationCreated(let site) = $0.kind { "\(site.fileID):\(site.line)" } else { nil } }
    }

    @Test func finishWaitsAtTheCallersLine() async {
        let (progressLine, keyedLine, batchLine) = (#line + 5, #line + 6, #line + 7)
        let (_, trace) = await withTraceRecording {
            let progress = ThrottledProgress<Int>(interval: .seconds(3600)) { _ in }
            let keyed = KeyedThrottledProgress<String, Int>(interval: .seconds(3600)) { _ in }
            let batches = BatchingReporter<Int>(interval: .seconds(3600), capacity: 8) { _ in }
            await progress.finish()
            await keyed.finish()
            await batches.finish()
        }
        let sites = waitSites(trace)
        for line in [progressLine, keyedLine, batchLine] {
            #expect(sites.contains("\(Self.file):\(line)"))
            #expect(trace.summary().contains("wait at \(Self.file):\(line)"))
        }
    }

    @Test func concurrentMapAndForEachNameTheCallersLine() async {
        let (mapLine, forEachLine) = (#line + 2, #line + 3)
        let (_, trace) = await withTraceRecording {
            _ = await [1, 2, 3].concurrentMap(maxConcurrency: 2) { $0 * 2 }
            await [1, 2].concurrentForEach(maxConcurrency: 2) { _ in }
        }
        let spans = trace.events.compactMap { if case .asyncSpanStarted(let name) = $0.kind { name } else { nil } }
        #expect(spans == ["concurrentMap at \(Self.file):\(mapLine)", "concurrentMap at \(Self.file):\(forEachLine)"])
        #expect(trace.chromeTraceJSON().contains("concurrentMap at \(Self.file):\(mapLine)"))
    }

}
