import Testing

@testable import ConcurrencyToolkit
import TestSupport

/// A monitored actor's track, from hand-built events with known answers.
@Suite struct ActorTrackTests {
    let ms = SampleTraces.ms

    /// Events appended out of time order (they come from several threads)
    /// are read in time order; a job that began before the recording counts
    /// from its start, one still running until the end.
    @Test func changesAreReadInTimeOrderAndBusyTimeIsWhatRanInTheRecording() throws {
        let events = [
            TraceEvent(kind: .actorJobFinished(actor: "Cache", ran: 9 * ms), id: 0, time: 2 * ms, threadID: 20),
            TraceEvent(kind: .actorJobStarted(actor: "Cache", depth: 1, waited: 1 * ms), id: 7, time: 3 * ms, threadID: 20),
            TraceEvent(kind: .actorJobQueued(actor: "Cache", depth: 2), id: 0, time: 1 * ms, threadID: 1),
            TraceEvent(kind: .actorJobFinished(actor: "Cache", ran: 4 * ms), id: 7, time: 7 * ms, threadID: 20),
            TraceEvent(kind: .actorJobStarted(actor: "Cache", depth: 0, waited: 6 * ms), id: 8, time: 7 * ms, threadID: 20),
        ]
        let timeline = TraceTimeline(Trace(events: events, threads: [], duration: 10 * ms, discardedEventCount: 0))
        let track = try #require(timeline.actors.first)
        #expect(timeline.actors.count == 1)
        #expect(track.samples.map { [$0.depth, $0.running] } == [[2, 0], [2, 0], [1, 1], [1, 0], [0, 1]])
        #expect(track.samples.map(\.time) == [1, 2, 3, 7, 7].map { $0 * ms })
        #expect(track.jobs == 2)
        #expect(track.maxDepth == 2)
        // 2 ms of the job begun before the recording, 4 ms, and 3 ms until the end.
        #expect(track.busy == 9 * ms)
        #expect(timeline.rows.map(\.name) == ["actor Cache"])
        let summary = timeline.intervals.filter { $0.category == .actorJob }
        #expect(summary.map(\.finished) == [true, false])
    }

    @Test func theSummaryTableAppearsOnlyWithActors() {
        #expect(!SampleTraces.mixed.summary().contains("Monitored actors"))
        let events = [
            TraceEvent(kind: .actorJobQueued(actor: "Cache", depth: 1), id: 0, time: 0, threadID: 1),
            TraceEvent(kind: .actorJobStarted(actor: "Cache", depth: 0, waited: 2 * ms), id: 1, time: 2 * ms, threadID: 20),
            TraceEvent(kind: .actorJobFinished(actor: "Cache", ran: 5 * ms), id: 1, time: 7 * ms, threadID: 20),
        ]
        let summary = Trace(events: events, threads: [], duration: 10 * ms, discardedEventCount: 0).summary()
        // The percentiles are read from the histogram as `statistics` reads them: its
        // bucket's middle (1.97 ms) kept within the waits recorded, so one wait of 2 ms
        // reads as 2 ms at every percentile.
        #expect(summary.contains("\n  Cache                    1       2 ms       2 ms       2 ms       5 ms      50        1\n"))
    }
}
