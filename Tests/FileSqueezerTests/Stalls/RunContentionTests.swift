import ConcurrencyToolkit
import Testing
import TestSupport
@testable import FileSqueezerCore

/// The summary's contention lines, from reports made by hand.
@Suite struct RunContentionTests {
    @Test func episodesAreSummedUpPerActor() {
        let held = ["ZlibStream.compress(_:ending:into:) at Sources/FileSqueezerCore/Compression/ZlibStream.swift:97"]
        let episodes = [
            RunContention(ActorContention(label: "ActorStrategy", longestWait: .milliseconds(600), maxQueueDepth: 1, jobs: 3)),
            RunContention(ActorContention(
                label: "ActorStrategy", longestWait: .milliseconds(2300), maxQueueDepth: 2, jobs: 13, holderBacktrace: held)),
        ]
        #expect(Summary.contentionLines(episodes) == """
            Actor contention of 250 ms or more: 1 actor
              actor ActorStrategy: 16 calls waited up to 2.3 s (queue 2 deep), held by \(held[0])

            """)
        #expect(Summary.contentionLines([]) == "Actor contention of 250 ms or more: none\n")
        #expect(episodes[1].heldBy == held[0])
        #expect(episodes[0].heldBy == nil)
    }

    /// An episode past 10 s is reported while it lasts, then when it ends,
    /// covering it whole: the summary counts it once.
    @Test func anOngoingReportIsLeftOutForTheEndedOne() {
        let watch = StallWatch()
        watch.add(ActorContention(label: "ActorStrategy", longestWait: .seconds(2), maxQueueDepth: 1, jobs: 40, isOngoing: true))
        watch.add(ActorContention(label: "ActorStrategy", longestWait: .seconds(3), maxQueueDepth: 1, jobs: 90))
        #expect(watch.contentions.map(\.jobs) == [90])
    }
}
