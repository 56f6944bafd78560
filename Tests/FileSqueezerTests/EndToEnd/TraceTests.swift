import Testing
import TestSupport

extension EndToEnd {
    /// `--trace`, `--timeline` and `--stats` record the run with the toolkit's Diagnostics.
    @Suite("End to end: --trace, --timeline, --stats")
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

        @Test("writes a Chrome trace, an SVG timeline and the stats; stage 2's spans show one file at a time")
        func actorSpansNeverOverlap() throws {
            let scratch = try Scratch()
            try scratch.file("in/a.txt", Sample.text(600_000))
            try scratch.file("in/b.txt", Sample.text(500_000, seed: 3))
            let json = scratch.path + "/run.json", svgPath = scratch.path + "/run.svg"
            let run = try SqueezerProcess.run(
                ["--strategy", "actor", "--jobs", "2", "--trace", json, "--timeline", svgPath, "--stats",
                 scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.stderr.contains("trace written to \(json)"))
            #expect(run.stderr.contains("timeline written to \(svgPath)"))
            #expect(run.stdout.contains("Trace: ") && run.stdout.contains("By kind"), "--stats prints the summary: \(run.stdout)")
            let trace = try JSONDecoder().decode(ChromeTrace.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
            let spans = trace.traceEvents.filter { $0.ph == "X" && $0.name.hasPrefix("compress ") }
                .sorted { ($0.ts ?? 0) < ($1.ts ?? 0) }
            #expect(Set(spans.map(\.name)) == ["compress a.txt", "compress b.txt"])
            if spans.count == 2, let start = spans[0].ts, let duration = spans[0].dur, let next = spans[1].ts {
                #expect(start + duration <= next, "one actor compresses one file at a time")
            }
            let svg = try String(contentsOfFile: svgPath, encoding: .utf8)
            #expect(svg.contains("<svg") && svg.contains("compress a.txt"))
        }

        /// Stage 3 keeps one segment queued ahead of its lanes (`jobs + 1`
        /// tasks), yet never deflates more than `jobs` segments at once: the
        /// lanes, not the tasks, bound the parallelism.
        @Test("stage 3: every segment is a span, and never more than --jobs deflate at once")
        func parallelSpansNeverExceedJobs() throws {
            let scratch = try Scratch()
            let sizes = [600_000, 500_000, 300_000]
            for (index, size) in sizes.enumerated() {
                try scratch.file("in/\(index).txt", Sample.text(size, seed: UInt64(index)))
            }
            let json = scratch.path + "/run.json"
            let jobs = 2
            let run = try SqueezerProcess.run(
                ["--jobs", String(jobs), "--segment-kib", "64", "--quiet", "--trace", json, scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            let trace = try JSONDecoder().decode(ChromeTrace.self, from: Data(contentsOf: URL(fileURLWithPath: json)))
            let spans = trace.traceEvents.filter { $0.ph == "X" && $0.name.hasPrefix("compress ") }
            let segments = sizes.reduce(0) { $0 + ($1 + 65_535) / 65_536 }
            #expect(spans.count == segments)
            #expect(spans.allSatisfy { $0.ts != nil && $0.dur != nil }, "every span has a start and a duration")
            // Sweep the span edges in time order; an end sorts before a start at the same instant.
            let edges = spans.flatMap { span -> [(Double, Int)] in
                guard let start = span.ts, let duration = span.dur else { return [] }
                return [(start, 1), (start + duration, -1)]
            }.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            var running = 0, most = 0
            for (_, change) in edges {
                running += change
                most = max(most, running)
            }
            #expect(most <= jobs, "\(most) segments deflated at once with --jobs \(jobs)")
        }
    }
}
