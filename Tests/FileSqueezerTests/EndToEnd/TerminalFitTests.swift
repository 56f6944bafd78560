import Foundation
import Testing
@testable import FileSqueezerCore

extension EndToEnd {
    /// The live display where the cursor cannot move: plain lines.
    @Suite("End to end: the display fits the terminal")
    struct TerminalFitTests {
        static func slowFolder(_ scratch: Scratch) throws -> String {
            try scratch.file("in/a.txt", DuringRunTests.slowFile(megabytes: 6))
            try scratch.file("in/b.txt", DuringRunTests.slowFile(megabytes: 5))
            try scratch.file("in/c.txt", Sample.text(20_000))
            return scratch.path + "/in"
        }

        @Test("TERM=dumb on a terminal: plain lines, no escape sequences",
              .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
        func dumbTerminal() throws {
            let scratch = try Scratch()
            let folder = try Self.slowFolder(scratch)
            let command = "TERM=dumb \(SqueezerProcess.binary.path) --level 9 --jobs 2 \(folder)"
            let result = try runTool("/usr/bin/script", ["-qec", command, "/dev/null"])
            let output = String(decoding: result.output, as: UTF8.self)
            #expect(result.status == 0)
            #expect(!output.contains("\u{1B}"), "escape sequences for a dumb terminal: \(output.debugDescription)")
            #expect(output.contains("a.txt -> a.txt.gz"))
            #expect(output.contains("Squeezed 3 files"))
        }
            @Test("a 20-column terminal: every live line fits, so erasing it leaves no fragments",
              .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
        func narrowTerminal() throws {
            let scratch = try Scratch()
            let folder = try Self.slowFolder(scratch)
            let command = "stty cols 20 rows 10; TERM=xterm \(SqueezerProcess.binary.path) --level 9 --jobs 2 \(folder)"
            let result = try runTool("/usr/bin/script", ["-qec", command, "/dev/null"])
            let output = String(decoding: result.output, as: UTF8.self)
            #expect(result.status == 0)
            // Drop the cursor-movement and erase sequences, then look at the
            // lines the live display drew: each has a bar ("[#…" or "[.…").
            let plain = output.replacingOccurrences(
                of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "\n", options: .regularExpression)
            let barLines = plain.split(whereSeparator: \.isNewline)
                .filter { $0.contains("[#") || $0.contains("[.") }
            #expect(!barLines.isEmpty, "no live lines drawn: \(output.debugDescription)")
            for line in barLines {
                #expect(line.count < 20, "a live line wider than the terminal wraps and leaves fragments: \(line.debugDescription)")
            }
        }
    }
}
