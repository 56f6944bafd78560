import Dispatch
import Foundation
import Testing

@testable import ConcurrencyToolkit
import TestSupport

@Suite struct ChromeTraceJSONTests {
    /// The parsed `traceEvents` array.
    func events(_ trace: Trace) throws -> [[String: Any]] {
        let data = Data(trace.chromeTraceJSON().utf8)
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(root["traceEvents"] as? [[String: Any]])
    }

    func phase(_ events: [[String: Any]], _ ph: String) -> [[String: Any]] {
        events.filter { $0["ph"] as? String == ph }
    }

    @Test func workOnThreadsBecomesCompleteEventsWithTimes() throws {
        let complete = phase(try events(SampleTraces.mixed), "X")
        // Two jobs on their lanes, two spans on main.
        #expect(complete.count == 4)
        let job = try #require(complete.first { ($0["tid"] as? Int) == 11 })
        #expect(job["name"] as? String == "io job")
        #expect(job["cat"] as? String == "job")
        #expect(job["ts"] as? Double == 2000)  // µs
        #expect(job["dur"] as? Double == 4000)
        #expect((job["args"] as? [String: String])?["outcome"] == "threw")
        #expect((job["args"] as? [String: String])?["lane"] == "1")
        let mainSlices = complete.filter { ($0["tid"] as? Int) == 1 }.compactMap { $0["name"] as? String }
        #expect(mainSlices.sorted() == ["inner", "outer"])
    }

    @Test func waitsBecomeAsyncPairsWithMatchingIDs() throws {
        let all = try events(SampleTraces.mixed)
        let begins = phase(all, "b")
        let ends = phase(all, "e")
        // Two queue waits, two continuation waits.
        #expect(begins.count == 4)
        #expect(ends.count == 4)
        for begin in begins {
            let id = try #require(begin["id"] as? String)
            let end = try #require(ends.first { $0["id"] as? String == id })
            #expect(end["cat"] as? String == begin["cat"] as? String)
            #expect(end["name"] as? String == begin["name"] as? String)
            #expect(try #require(end["ts"] as? Double) >= (try #require(begin["ts"] as? Double)))
        }
        let resumed = try #require(begins.first { $0["name"] as? String == "wait at App/Fetch.swift:12" })
        let resumedEnd = try #require(ends.first { $0["id"] as? String == resumed["id"] as? String })
        #expect(resumed["tid"] as? Int == 20)
        #expect(resumedEnd["tid"] as? Int == 10)  // resumed from a lane
        let stuck = try #require(begins.first { $0["name"] as? String == "wait at App/Stuck.swift:40" })
        #expect((stuck["args"] as? [String: String])?["unfinished"] != nil)
    }

    @Test func threadNamesAndInstants() throws {
        let all = try events(SampleTraces.mixed)
        let names = phase(all, "M").filter { $0["name"] as? String == "thread_name" }
        let byTID = Dictionary(uniqueKeysWithValues: names.map {
            ($0["tid"] as? Int ?? -1, ($0["args"] as? [String: String])?["name"] ?? "")
        })
        // A track per row; thread 20 only waited, so it has no row.
        #expect(byTID == [1: "main", 10: "io lane 0", 11: "io lane 1"])
        let instants = phase(all, "i")
        #expect(instants.count == 4)
        let stall = try #require(instants.first { $0["cat"] as? String == "stall" })
        #expect((stall["name"] as? String)?.hasPrefix("the main actor ran no job for 300 ms") == true)
        let marker = try #require(instants.first { $0["cat"] as? String == "marker" })
        #expect(marker["name"] as? String == SampleTraces.markerName)  // quotes and brackets survive
        #expect(marker["s"] as? String == "t")
        #expect(marker["ts"] as? Double == 3000)
        let misuse = try #require(instants.first { $0["cat"] as? String == "misuse" })
        #expect((misuse["name"] as? String)?.contains("resumed more than once") == true)
    }

    @Test func recordedJobsOnTwoLanesGiveCompleteEventsOnTwoThreads() async throws {
        let lanes = [DispatchQueue(label: "json-lane-0"), DispatchQueue(label: "json-lane-1")]
        let (_, trace) = await withTraceRecording {
            await withTaskGroup(of: Void.self) { group in
                for (index, lane) in lanes.enumerated() {
                    group.addTask {
                        let token = Instrumentation.begin(.jobQueued(executor: "json"))
                        await withCheckedContinuation { continuation in
                            lane.async {
                                token?.emit(.jobStarted(executor: "json", lane: index))
                                // As BlockingExecutor does: the job's closure sees the recording.
                                Instrumentation.withRecorder(token?.recorder) {
                                    span("compress file\(index)") { blockThread(milliseconds: 20) }
                                }
                                token?.emit(.jobFinished(failed: false))
                                continuation.resume()
                            }
                        }
                    }
                }
            }
        }
        let complete = phase(try events(trace), "X")
        let jobs = complete.filter { $0["cat"] as? String == "job" }
        #expect(jobs.count == 2)
        #expect(Set(jobs.compactMap { $0["tid"] as? Int }).count == 2)
        let spans = complete.filter { $0["cat"] as? String == "span" }.compactMap { $0["name"] as? String }
        #expect(spans.sorted() == ["compress file0", "compress file1"])
        for job in jobs { #expect(try #require(job["dur"] as? Double) >= 15_000) }
    }
}
