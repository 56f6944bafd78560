import Testing
import TestSupport

extension EndToEnd {
    /// On a terminal the display redraws live bars; `script` gives the binary a
    /// pseudo-terminal, as a user's shell would.
    @Suite("End to end: live display on a TTY")
    struct LiveDisplayTests {
        @Test("bars and an overall line with ETA, redrawn at most ~30 times a second",
              .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
        func liveBars() throws {
            let scratch = try Scratch()
            try scratch.file("in/a.txt", DuringRunTests.slowFile(megabytes: 4))
            try scratch.file("in/b.txt", DuringRunTests.slowFile(megabytes: 3))
            // A TERM that moves the cursor, whatever the runner has (CI may have none).
            let command = "TERM=xterm \(SqueezerProcess.binary.path) --level 9 --jobs 2 \(scratch.path)/in"
            let result = try runTool("/usr/bin/script", ["-qec", command, "/dev/null"])
            let output = String(decoding: result.output, as: UTF8.self)
            #expect(result.status == 0)
            #expect(output.contains("of 7.3 MB"), "overall line with total bytes")
            #expect(output.contains("ETA"))
            #expect(output.contains("%  a.txt"), "a bar for a file in flight")
            #expect(output.contains("Squeezed 2 files"))
            // Each redraw first moves up over the previous bars with ESC [ n F.
            let redraws = output.matches(of: /\x{1B}\[\d+F/).count
            let wall = Double(output.firstMatch(of: /in (\d+\.\d+) s/)?.1 ?? "0") ?? 0
            #expect(redraws >= 2, "the bars were redrawn during the run")
            // 30 a second from the throttle, plus one per finished file.
            #expect(Double(redraws) <= wall * 31 + 4, "\(redraws) redraws in \(wall) s")
        }
    }
}
