import Foundation
import Testing
@testable import FileSqueezerCore
import TestSupport

/// `--json` is written without Foundation; Foundation's decoder must read it back.
@Suite("JSON text")
struct JSONTextTests {
    @Test("every character a name can hold survives the round trip through JSONDecoder")
    func escapes() throws {
        let awkward = "quote\" backslash\\ slash/ newline\n tab\t bell\u{07} nul\u{00} del\u{7F} é 🦆 \u{EF80}"
        let outcome = FileOutcome(
            path: awkward, destination: awkward + ".gz", status: .failed, reason: "cannot open: \u{1B}[31m",
            bytesIn: 12, bytesOut: 0, seconds: 0.000_012_5)
        let decoded = try JSONDecoder().decode(FileOutcome.self, from: Data(outcome.json.rendered().utf8))
        #expect(decoded == outcome)
    }

    @Test("a whole report decodes to itself; keys are sorted and absent optionals left out")
    func report() throws {
        let report = RunReport(
            strategy: .parallel, placement: .lanes, jobs: 2, level: 6, compressed: 1, failed: 0, notFinished: 0,
            bytesIn: 1 << 40, bytesOut: 3, ratio: 1e-12, wallSeconds: 1.5, parallelism: 1.97,
            longestMainActorStallMilliseconds: 4, interrupted: false, notes: [],
            files: [FileOutcome(path: "a", destination: "a.gz", status: .compressed, reason: nil,
                                bytesIn: 1, bytesOut: 3, seconds: 0.25)])
        let text = Summary.json(report)
        #expect(try JSONDecoder().decode(RunReport.self, from: Data(text.utf8)) == report)
        let keys = text.split(separator: "\n").filter { $0.hasPrefix("  \"") }.map { $0.split(separator: "\"")[1] }
        #expect(keys == keys.sorted())
        #expect(!text.contains("\"signal\""))
        #expect(!text.contains("\"reason\""))
    }
}
