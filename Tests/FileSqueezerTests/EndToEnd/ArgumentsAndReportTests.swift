import Testing
@testable import FileSqueezerCore
import TestSupport

extension EndToEnd {
    /// gzip's spellings, strict `--opt=value`, and a report that is never lost
    /// in silence or in grammar.
    @Suite("End to end: arguments and the report")
    struct ArgumentsAndReportTests {
        @Test("gzip's spellings: -rq -j2 -9, --best, -k and --keep compress as asked")
        func gzipSpellings() throws {
            let scratch = try Scratch()
            try scratch.file("in/sub/a.txt", Sample.text(50_000))
            let run = try SqueezerProcess.run(["-rqk", "-j2", "-9", "--keep", "--output", scratch.path + "/out", scratch.path + "/in"], in: scratch)
            #expect(run.status == 0, "stderr: \(run.stderr)")
            #expect(run.stdout.contains("Squeezed 1 file:"))
            #expect(run.stdout.contains("2 jobs"))
            #expect(try scratch.listing("out") == ["sub/a.txt.gz"])
            let json = try SqueezerProcess.run(["--best", "--json", "-o", scratch.path + "/out2", scratch.path + "/in"], in: scratch)
            #expect(json.stdout.contains("\"level\" : 9"))
            #expect(try scratch.listing("out2").isEmpty, "without -r the subfolder is skipped")
        }

        @Test("-V and --version print the version and exit 0", arguments: ["-V", "--version"])
        func version(_ flag: String) throws {
            let scratch = try Scratch()
            let run = try SqueezerProcess.run([flag], in: scratch)
            #expect(run.status == 0)
            #expect(run.stdout.hasPrefix("file-squeezer \(FileSqueezerCommand.version)"))
        }

        @Test("flags given a value, an empty --output and an empty FOLDER are usage errors", arguments: [
            (["--quiet=no", "IN"], "--quiet takes no value"),
            (["--force=yes", "IN"], "--force takes no value"),
            (["--output", "", "IN"], "--output needs a name, not an empty string"),
            (["--output=", "IN"], "--output needs a name, not an empty string"),
            ([""], "FOLDER is empty"),
        ])
        func strictValues(_ arguments: [String], _ message: String) throws {
            let scratch = try Scratch()
            try scratch.file("in/a.txt", Sample.text(1_000))
            let run = try SqueezerProcess.run(arguments.map { $0 == "IN" ? scratch.path + "/in" : $0 }, in: scratch)
            #expect(run.status == 2, "stdout: \(run.stdout)")
            #expect(run.stderr.contains(message), "stderr: \(run.stderr)")
            #expect(try scratch.listing("in") == ["a.txt"], "nothing was compressed")
        }

        @Test("a report that cannot be written is an error: stdout: No space left on device, exit 1",
              .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")),
              arguments: [["--json"], []])
        func fullStdout(_ flags: [String]) throws {
            let scratch = try Scratch()
            try scratch.file("in/a.txt", Sample.text(10_000))
            let script = "\"$0\" \"$@\" > /dev/full"
            let run = try SqueezerProcess.run(flags + [scratch.path + "/in"], prefix: ["/bin/sh", "-c", script], in: scratch)
            #expect(run.status == 1)
            #expect(run.stderr.contains("file-squeezer: stdout: No space left on device"), "stderr: \(run.stderr)")
            #expect(try scratch.listing("in") == ["a.txt", "a.txt.gz"], "the files themselves are still compressed")
        }

        @Test("counts agree with their nouns: 1 file, 1 job, 1 file failed")
        func plurals() throws {
            let scratch = try Scratch()
            try scratch.file("in/a.txt", Sample.text(10_000))
            try scratch.file("in/b.txt", Sample.text(10_000, seed: 3))
            try scratch.file("in/b.txt.gz", Data("in the way".utf8))
            let run = try SqueezerProcess.run(["--jobs", "1", scratch.path + "/in"], in: scratch)
            #expect(run.status == 1)
            #expect(run.stdout.contains("Squeezed 1 file:"), "stdout: \(run.stdout)")
            #expect(run.stdout.contains("1 job:"))
            #expect(run.stdout.contains("1 file failed"))
        }
    }
}
