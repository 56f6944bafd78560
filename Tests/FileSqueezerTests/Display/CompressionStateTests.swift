import Testing
@testable import FileSqueezerCore
import TestSupport

@Suite("CompressionState")
@MainActor
struct CompressionStateTests {
    let plans = [
        FilePlan(source: "/f/a", relativePath: "a", destination: "/f/a.gz", size: 100),
        FilePlan(source: "/f/b", relativePath: "b", destination: "/f/b.gz", size: 300),
    ]

    func outcome(_ status: FileOutcome.Status) -> FileOutcome {
        FileOutcome(path: "a", destination: "/f/a.gz", status: status, reason: nil, bytesIn: 100, bytesOut: 10, seconds: 0)
    }

    @Test("progress updates files in flight and the overall byte count")
    func progress() {
        let state = CompressionState()
        state.start(plans)
        #expect(state.totalFiles == 2 && state.totalBytes == 400)
        state.update(bytesRead: [0: 50, 1: 150])
        #expect(state.filesInFlight.map(\.name) == ["a", "b"])
        #expect(state.filesInFlight[1].fraction == 0.5)
        state.update(overallBytes: 200)
        #expect(state.bytesDone == 200)
        #expect(state.fractionDone == 0.5)
    }

    @Test("finishing a file removes its bar for good: a late progress delivery cannot bring it back")
    func finish() {
        let state = CompressionState()
        state.start(plans)
        state.update(bytesRead: [0: 50, 1: 150])
        state.finish(0, outcome(.compressed))
        #expect(state.filesInFlight.map(\.name) == ["b"])
        state.update(bytesRead: [0: 100])  // throttled delivery arriving after the finish
        #expect(state.filesInFlight.map(\.name) == ["b"])
        state.finish(1, outcome(.failed))
        #expect(state.finishedFiles == 1 && state.failedFiles == 1)
        #expect(state.inFlight.isEmpty)
    }
}
