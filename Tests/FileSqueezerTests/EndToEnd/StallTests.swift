import Foundation
import Testing
@testable import FileSqueezerCore

/// The talk's lesson, measured by the main-actor heartbeat: compressing on
/// the main actor freezes it for a whole file; the other stages do not.
@Suite("End to end: main-actor stall per strategy")
struct StallTests {
    func report(_ strategy: Strategy, jobs: Int) throws -> RunReport {
        let scratch = try Scratch()
        // Two files of a few hundred ms each at level 9 (more on a loaded machine).
        try scratch.file("in/a.txt", DuringRunTests.slowFile(megabytes: 2))
        try scratch.file("in/b.txt", DuringRunTests.slowFile(megabytes: 2))
        let run = try SqueezerProcess.run(
            ["--json", "--level", "9", "--jobs", String(jobs), "--strategy", strategy.rawValue, scratch.path + "/in"], in: scratch)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        return try JSONDecoder().decode(RunReport.self, from: Data(run.stdout.utf8))
    }

    @Test("main-actor: the stall is about as long as the longest file")
    func mainActor() throws {
        let report = try report(.mainActor, jobs: 2)
        let longestFile = report.files.map(\.seconds).max() ?? 0
        #expect(longestFile > 0.1)
        #expect(report.longestMainActorStallMilliseconds / 1000 > longestFile * 0.8)
        // Between files the main actor is free for a moment: the stall is
        // per file, not the whole run.
        #expect(report.longestMainActorStallMilliseconds / 1000 < report.wallSeconds * 0.9)
        #expect(report.parallelism < 1.2)
    }

    @Test("actor: no freeze (stall far below a file's time), no speedup (parallelism about 1)")
    func oneActor() throws {
        let report = try report(.actor, jobs: 2)
        let longestFile = report.files.map(\.seconds).max() ?? 0
        #expect(report.longestMainActorStallMilliseconds / 1000 < longestFile / 2)
        #expect(report.parallelism < 1.2)
    }
}
