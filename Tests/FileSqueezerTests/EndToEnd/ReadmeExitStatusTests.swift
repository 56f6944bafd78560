import Testing
@testable import FileSqueezerCore
import TestSupport

extension EndToEnd {
    /// The exit statuses the READMEs promise are the ones the binary gives:
    /// 0, 1 and 2 run here; the signal rows are checked against the signals
    /// the app handles (SignalTests runs the binary for each of them).
    @Suite("End to end: the README's exit statuses")
    struct ReadmeExitStatusTests {
        static let root = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

        /// The rows of the exit-status table in Examples/FileSqueezer/README.md: status → meaning.
        static func table() throws -> [Int32: String] {
            let text = try String(contentsOf: root.appendingPathComponent("Examples/FileSqueezer/README.md"), encoding: .utf8)
            var rows: [Int32: String] = [:]
            for line in text.split(separator: "\n") where line.hasPrefix("| ") {
                let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                if cells.count >= 2, let status = Int32(cells[0]) { rows[status] = cells[1] }
            }
            return rows
        }

        @Test("the table lists 0, 1, 2 and 128 + N for exactly the signals that stop a run, each named")
        func tableMatchesTheSignals() throws {
            let rows = try Self.table()
            let signals = StopSignals.stopping
            #expect(Set(rows.keys) == Set([0, 1, 2] + signals.map { 128 + $0 }))
            for signal in signals {
                #expect(rows[128 + signal]?.contains(StopSignals.name(signal)) == true, "row \(128 + signal)")
            }
        }

        @Test("the binary exits 0, 1 and 2 where the table says")
        func statusesFromTheBinary() throws {
            let rows = try Self.table()
            let scratch = try Scratch()
            try scratch.file("ok/a.txt", Sample.text(1000))
            try scratch.file("ok/archive.tgz", Sample.text(10))  // a skip keeps 0
            try scratch.file("failing/a.txt", Sample.text(1000))
            try scratch.file("failing/a.txt.gz", Data("in the way".utf8))
            let cases: [(arguments: [String], status: Int32, row: String)] = [
                ([scratch.path + "/ok"], 0, "compressed"),
                ([scratch.path + "/failing"], 1, "Some file failed"),
                (["--frobnicate", scratch.path + "/ok"], 2, "unknown option"),
                ([scratch.path + "/missing"], 2, "missing"),
                ([scratch.path + "/ok", scratch.path + "/failing"], 2, "more than one"),
            ]
            for (arguments, status, phrase) in cases {
                let run = try SqueezerProcess.run(arguments, in: scratch)
                #expect(run.status == status, "\(arguments): stderr \(run.stderr)")
                #expect(rows[status]?.contains(phrase) == true, "row \(status) should say '\(phrase)'")
            }
        }

        @Test("README.md states the same statuses in one line")
        func rootReadme() throws {
            let text = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
                .replacingOccurrences(of: "\n", with: " ")
            #expect(text.contains("Exit status: 0 all done, 1 some file failed"))
            #expect(text.contains("2 usage error, 128 + N stopped by signal N (SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM"))
            #expect(StopSignals.stopping.map(StopSignals.name) == ["SIGHUP", "SIGINT", "SIGQUIT", "SIGPIPE", "SIGTERM"])
        }
    }
}
