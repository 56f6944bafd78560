@testable import ConcurrencyToolkit
import TestSupport

/// Hand-built traces with known answers, so the exports are checked against
/// numbers worked out by hand rather than against their own output.
enum SampleTraces {
    static let ms: UInt64 = 1_000_000
    static let waitSite = CallSite(function: "fetch()", fileID: "App/Fetch.swift", line: 12)
    static let stuckSite = CallSite(function: "stuck()", fileID: "App/Stuck.swift", line: 40)
    static let markerName = #"scan <done> & "quoted" 'ok'"#

    /// main (1) submits two jobs to "io"; lanes 10 and 11 run them (1–5 ms,
    /// 2–6 ms, the second throws); pool thread 20 waits on a continuation
    /// resumed from lane 10 at 4 ms (then resumed again: misuse) and on one
    /// never resumed; main runs span "outer" 0–8 ms with "inner" 1–2 ms inside.
    static var mixed: Trace {
        let threads = [
            TraceThread(id: 1, name: "main", systemName: "app", isMain: true),
            TraceThread(id: 10, name: "io lane 0", systemName: "-qos.overcommit", isMain: false),
            TraceThread(id: 11, name: "io lane 1", systemName: "-qos.overcommit", isMain: false),
            TraceThread(id: 20, name: "cooperative pool · 20", systemName: "oot.default-qos", isMain: false),
        ]
        let misuse = ContinuationMisuse(kind: .resumedMoreThanOnce, creationSite: waitSite, resumeSite: waitSite)
        let events: [TraceEvent] = [
            TraceEvent(kind: .spanStarted(name: "outer"), id: 5, time: 0, threadID: 1),
            TraceEvent(kind: .jobQueued(executor: "io"), id: 1, time: 0, threadID: 1),
            TraceEvent(kind: .jobQueued(executor: "io"), id: 2, time: 0, threadID: 1),
            TraceEvent(kind: .jobStarted(executor: "io", lane: 0), id: 1, time: 1 * ms, threadID: 10),
            TraceEvent(kind: .continuationCreated(site: waitSite), id: 3, time: 1 * ms, threadID: 20),
            TraceEvent(kind: .spanStarted(name: "inner"), id: 6, time: 1 * ms, threadID: 1),
            TraceEvent(kind: .jobStarted(executor: "io", lane: 1), id: 2, time: 2 * ms, threadID: 11),
            TraceEvent(kind: .continuationCreated(site: stuckSite), id: 4, time: 2 * ms, threadID: 20),
            TraceEvent(kind: .spanFinished, id: 6, time: 2 * ms, threadID: 1),
            TraceEvent(kind: .marker(name: markerName), id: 0, time: 3 * ms, threadID: 1),
            TraceEvent(kind: .continuationResumed, id: 3, time: 4 * ms, threadID: 10),
            TraceEvent(kind: .continuationMisused(misuse), id: 3, time: 4 * ms + ms / 2, threadID: 10),
            TraceEvent(kind: .jobFinished(failed: false), id: 1, time: 5 * ms, threadID: 10),
            TraceEvent(kind: .jobFinished(failed: true), id: 2, time: 6 * ms, threadID: 11),
            TraceEvent(kind: .stalled(ConcurrencyStall(kind: .mainActorBlocked, duration: .milliseconds(300))),
                id: 0, time: 7 * ms, threadID: 1),
            TraceEvent(kind: .actorContended(ActorContention(label: "Cache", longestWait: .milliseconds(250), maxQueueDepth: 5, jobs: 6)),
                id: 0, time: 7 * ms + ms / 2, threadID: 1),
            TraceEvent(kind: .spanFinished, id: 5, time: 8 * ms, threadID: 1),
        ]
        return Trace(events: events, threads: threads, duration: 10 * ms, discardedEventCount: 0)
    }

    static func interval(_ timeline: TraceTimeline, id: UInt64) -> TraceTimeline.Interval? {
        timeline.intervals.first { $0.id == id && $0.category != .jobQueued }
            ?? timeline.intervals.first { $0.id == id }
    }
}
