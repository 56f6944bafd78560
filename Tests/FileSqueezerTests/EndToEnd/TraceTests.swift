import Foundation
import Testing
@testable import FileSqueezerCore

extension EndToEnd {
    /// `--trace` records the run with the toolkit's Diagnostics.
    @Suite("End to end: --trace")
    struct TraceTests {
        struct ChromeTrace: Decodable {
            struct Event: Decodable {
                let name: String
                let ph: String
                let ts: Double?
                let dur: Double?
            }
            let traceEvents: [Event]
        }

        @Test("writes a Chrome trace and an SVG; stage 2's spans show one file at a time")
        func actorSpansNeverOverlap() throws {
            let scratch = try Scratch()
            try scratch.file("in/a.txt", Sample.text(600_000))
            try scratch.file("in/b.txt", Sample.text(500_000, seed: 3))
            let prefix = scratch.path + "/run"
            let run = try SqueezerProcess.run(
                ["--strategy", "actor", "--jobs", "2", "--quiet", "--trace", prefix, scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.stderr.contains("trace written to \(prefix).json and \(prefix).svg"))
            let trace = try JSONDecoder().decode(ChromeTrace.self, from: Data(contentsOf: URL(fileURLWithPath: prefix + ".json")))
            let spans = trace.traceEvents.filter { $0.ph == "X" && $0.name.hasPrefix("compress ") }
                .sorted { ($0.ts ?? 0) < ($1.ts ?? 0) }
            #expect(Set(spans.map(\.name)) == ["compress a.txt", "compress b.txt"])
            if spans.count == 2, let start = spans[0].ts, let duration = spans[0].dur, let next = spans[1].ts {
                #expect(start + duration <= next, "one actor compresses one file at a time")
            }
            let svg = try String(contentsOfFile: prefix + ".svg", encoding: .utf8)
            #expect(svg.contains("<svg") && svg.contains("compress a.txt"))
        }
    }
}
