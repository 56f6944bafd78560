import Foundation
import Testing
import TestSupport
@testable import FileSqueezerCore

extension EndToEnd {
    /// `--detect-stalls` also starts the toolkit's ActorContentionDetector:
    /// stage 2's files waiting for its one actor, in the summary and in `--json`.
    @Suite("End to end: actor contention", .longRun)
    struct ActorContentionEndToEndTests {
        @Test("stage 2: files wait for the one actor, held by the compression")
        func stageTwoIsContended() throws {
            let scratch = try StallDetectorTests().folder(files: 3, megabytes: 4)
            let run = try SqueezerProcess.run(
                ["--strategy", "actor", "--jobs", "3", "--level", "9", "--detect-stalls", scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let lines = run.stdout.split(separator: "\n").map(String.init)
            #expect(lines.contains("Actor contention of 250 ms or more: 1 actor"), "\(run.stdout)")
            let actor = try #require(lines.first { $0.hasPrefix("  actor ActorStrategy: ") }, "\(run.stdout)")
            if StallDetectorTests.takesStacks {
                #expect(actor.contains("held by ") && StallDetectorTests.namesCompression(actor), "\(actor)")
            }
            let report = try StallDetectorTests().jsonReport(
                ["--strategy", "actor", "--jobs", "3", "--force", "--detect-stalls"], in: scratch)
            let contentions = try #require(report.contentions)
            #expect(contentions.contains { $0.actor == "ActorStrategy" && $0.longestWaitMilliseconds >= 250 }, "\(contentions)")
        }

        @Test("the talk's fix: no actor to wait for")
        func concurrentHasNone() throws {
            let scratch = try StallDetectorTests().folder(files: 2, megabytes: 2)
            let report = try StallDetectorTests().jsonReport(["--strategy", "concurrent", "--detect-stalls"], in: scratch)
            #expect(report.contentions == [], "\(report.contentions ?? [])")
        }
    }
}
