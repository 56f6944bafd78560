import Testing
import TestSupport

extension EndToEnd {
    /// Standard streams the caller closed (`>&-`): the run goes on, and a
    /// write to a closed standard output is an ordinary output failure
    /// (exit 1), as for gzip and coreutils.
    @Suite("End to end: closed standard streams")
    struct ClosedStreamsTests {
        /// The closing redirections, and which of standard output and error
        /// they close. A closed standard output is exit 1 (the summary
        /// cannot be written), said on standard error if that is open.
        static let cases: [(redirections: String, closesOutput: Bool, closesError: Bool)] = [
            (">&- 2>&-", true, true), ("<&- >&- 2>&-", true, true), (">&-", true, false),
            ("<&-", false, false), ("2>&-", false, true), ("<&- 2>&-", false, true),
        ]

        @Test("every file is compressed whichever of 0-2 is closed; a closed stdout exits 1",
              .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash")),
              arguments: Self.cases.indices)
        func closedStreams(_ index: Int) throws {
            let (redirections, closesOutput, closesError) = Self.cases[index]
            let scratch = try Scratch()
            // The reproduction: seq 20000 > r/a; seq 30000 > r/b.
            let a = Data((1...20_000).map { "\($0)\n" }.joined().utf8)
            let b = Data((1...30_000).map { "\($0)\n" }.joined().utf8)
            try scratch.file("r/a", a)
            try scratch.file("r/b", b)
            // Skipped with a note: text on standard error while the run goes on.
            #expect(symlink("a", scratch.path + "/r/link") == 0)
            // The shell closes the streams for the binary alone and reports
            // its status on its own standard error.
            let script = "\"$0\" \"$1\" \(redirections); echo \"status=$?\" >&2"
            let run = try SqueezerProcess.run([scratch.path + "/r"], prefix: ["/bin/bash", "-c", script], in: scratch)

            #expect(run.stderr.contains("status=\(closesOutput ? 1 : 0)\n"), "\(redirections): stderr: \(run.stderr)")
            for (name, original) in [("a", a), ("b", b)] {
                let unzipped = try runTool("/usr/bin/gzip", ["-dc", scratch.path + "/r/\(name).gz"])
                #expect(unzipped.status == 0 && unzipped.output == original, "\(redirections): r/\(name).gz")
            }
            #expect(try scratch.listing("r") == ["a", "a.gz", "b", "b.gz", "link"], "\(redirections)")
            if closesOutput {
                #expect(run.stdout.isEmpty, "\(redirections): the app's output reached a descriptor it opened: \(run.stdout)")
                if !closesError {
                    #expect(run.stderr.contains("file-squeezer: stdout: Bad file descriptor\n"), "stderr: \(run.stderr)")
                }
            } else {
                #expect(run.stdout.contains("Squeezed 2 files"), "\(redirections): stdout: \(run.stdout)")
            }
        }
    }
}
