import ConcurrencyToolkit
import Foundation
import Testing
@testable import FileSqueezerCore
import TestSupport

/// What the app makes of the stall detector's reports (StallWatch, RunStall, the summary and --json).
@Suite("Stall reports in the run's report")
struct RunStallTests {
    func stall(_ kind: ConcurrencyStall.Kind, ms: Int, ongoing: Bool, frames: [String] = []) -> ConcurrencyStall {
        var stall = ConcurrencyStall(
            kind: kind, duration: .milliseconds(ms), isOngoing: ongoing,
            threads: frames.isEmpty ? [] : [.init(id: 7, backtrace: frames)])
        if kind == .cooperativePoolBlocked { stall.priority = .medium }
        return stall
    }

    static let frames = [
        "<unknown>", "__interceptor_memcpy at /home/build-user/llvm-project/compiler-rt/lib/tsan/rtl/x.inc:117",
        "ZlibStream.compress(_:ending:into:) at Sources/Z.swift:97", "compressWholeFile() at Sources/C.swift:17",
    ]

    @Test("an ongoing and an ended report of one stall make one entry: the blame of the first, the duration of the second")
    func pairing() {
        let watch = StallWatch()
        watch.add(stall(.mainActorBlocked, ms: 260, ongoing: true, frames: Self.frames))
        watch.add(stall(.cooperativePoolBlocked, ms: 300, ongoing: false))  // began and ended between two looks
        watch.add(stall(.mainActorBlocked, ms: 900, ongoing: false, frames: Self.frames))
        watch.add(stall(.mainActorBlocked, ms: 255, ongoing: true))  // still lasting at the end
        let stalls = watch.stalls
        #expect(stalls.map(\.kind) == ["mainActorBlocked", "cooperativePoolBlocked", "mainActorBlocked"])
        #expect(stalls.map(\.milliseconds) == [900, 300, 255])
        #expect(stalls.map(\.ongoing) == [false, false, true])
        #expect(stalls[0].blockedIn == Self.frames[2], "the first frame of our code, not zlib's or a sanitizer's")
        #expect(stalls[1].blockedIn == nil && stalls[1].priority == "medium")
    }

    @Test("the summary counts stalls per kind, with the longest and the function that blocked")
    func summaryLines() {
        let entries = [
            RunStall(stall(.mainActorBlocked, ms: 400, ongoing: false, frames: Self.frames)),
            RunStall(stall(.cooperativePoolBlocked, ms: 300, ongoing: false)),
            RunStall(stall(.mainActorBlocked, ms: 1400, ongoing: false, frames: Self.frames)),
        ]
        #expect(Summary.stallLines(entries) == """
            Stalls of 250 ms or more: 3
              main actor: 2, longest 1400 ms, blocked in ZlibStream.compress(_:ending:into:) at Sources/Z.swift:97
              cooperative pool (medium priority): 1, longest 300 ms, no backtrace

            """)
        #expect(Summary.stallLines([]) == "Stalls of 250 ms or more: none\n")
    }

    @Test("--json lists the stalls, and decodes back; without the detector there is no stalls key")
    func json() throws {
        var report = RunReport(
            strategy: .mainActor, placement: .lanes, jobs: 1, level: 9, compressed: 1, failed: 0, notFinished: 0,
            bytesIn: 10, bytesOut: 5, ratio: 0.5, wallSeconds: 1, parallelism: 1,
            longestMainActorStallMilliseconds: 900, interrupted: false, notes: [], files: [])
        #expect(!Summary.json(report).contains("\"stalls\""))
        report.stalls = [
            RunStall(stall(.mainActorBlocked, ms: 900, ongoing: false, frames: Self.frames)),
            RunStall(stall(.cooperativePoolBlocked, ms: 300, ongoing: true)),
        ]
        let text = Summary.json(report)
        #expect(try JSONDecoder().decode(RunReport.self, from: Data(text.utf8)) == report)
        #expect(text.contains("\"blockedIn\" : \"ZlibStream.compress(_:ending:into:) at Sources/Z.swift:97\""))
    }
}
