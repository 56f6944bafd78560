import Testing
import TestSupport

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

        @Test("a terminal narrowed mid-run: the bars are redrawn at the new width",
              .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
        func resizedTerminal() throws {
            let scratch = try Scratch()
            let folder = try Self.slowFolder(scratch)
            // Wide at the start; once live lines are drawn, the terminal is
            // narrowed (the kernel sends SIGWINCH to the foreground group on
            // TIOCSWINSZ; the explicit kill makes sure it arrives) and a
            // marker goes into the same output stream. "Once drawn": output
            // in a named temporary means a segment was read and deflated, so
            // progress was reported (however slowly a loaded machine runs),
            // then 0.3 s is ten display intervals; a fixed sleep from launch
            // flaked under load.
            let command = """
                stty cols 100 rows 10; FILE_SQUEEZER_NAMED_TEMPORARIES=1 TERM=xterm \(SqueezerProcess.binary.path) --level 9 --jobs 2 \(folder) & \
                pid=$!; n=0; until find \(folder) -maxdepth 1 -name '.squeeze-*' -size +0c | grep -q . || [ $n -ge 600 ]; do sleep 0.05; n=$((n+1)); done; \
                [ $n -lt 600 ] || echo NO-OUTPUT-WITHIN-30-S; sleep 0.3; stty cols 30; kill -WINCH $pid; echo RESIZED-MARK; wait $pid
                """
            let result = try runTool("/usr/bin/script", ["-qec", command, "/dev/null"])
            let output = String(decoding: result.output, as: UTF8.self)
            #expect(result.status == 0)
            #expect(!output.contains("NO-OUTPUT-WITHIN-30-S"), "no temporary held output within 30 s")
            let parts = output.components(separatedBy: "RESIZED-MARK")
            try #require(parts.count == 2, "no marker in: \(output.debugDescription)")
            func barLines(_ text: String) -> [Substring] {
                text.replacingOccurrences(of: "\u{1B}\\[[0-9;?]*[A-Za-z]", with: "\n", options: .regularExpression)
                    .split(whereSeparator: \.isNewline).filter { $0.contains("[#") || $0.contains("[.") }
            }
            let before = barLines(parts[0]), after = barLines(parts[1])
            #expect(before.contains { $0.count >= 30 }, "the wide terminal's lines: \(before)")
            // The frame in flight when the size changed may still be wide;
            // every frame after it fits the new width.
            #expect(after.count > 3, "no live lines after the resize: \(parts[1].debugDescription)")
            for line in after.dropFirst(3) {
                #expect(line.count < 30, "a line drawn after the resize is wider than the terminal: \(line.debugDescription)")
            }
        }
    }
}
