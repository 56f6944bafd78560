import Testing
@testable import FileSqueezerCore

@Suite("Options parsing")
struct OptionsTests {
    @Test("defaults: parallel, level 6, jobs from the processor count")
    func defaults() throws {
        let options = try Options.parse(["photos"], defaultJobs: 3)
        #expect(options.folder == "photos")
        #expect(options.jobs == 3)
        #expect(options.level == 6)
        #expect(options.strategy == .parallel)
        #expect(options.placement == .lanes)
        #expect(options.segmentKiB == 1024)
        #expect(!options.force && !options.quiet && !options.json && !options.recursive)
    }

    @Test("every option, in both --name value and --name=value forms")
    func everything() throws {
        let options = try Options.parse(
            ["--jobs=4", "--level", "9", "--force", "--quiet", "--json", "--recursive",
             "--output", "out", "--strategy=main-actor", "--deflate-on", "pool", "--segment-kib=64",
             "--", "-odd-folder-name"], defaultJobs: 1)
        #expect(options.jobs == 4 && options.level == 9)
        #expect(options.segmentKiB == 64)
        #expect(options.force && options.quiet && options.json && options.recursive)
        #expect(options.output == "out")
        #expect(options.strategy == .mainActor)
        #expect(options.placement == .pool)
        #expect(options.folder == "-odd-folder-name")
    }

    @Test("--demo and --make-corpus take no folder")
    func demo() throws {
        #expect(try Options.parse(["--demo", "--corpus-mb", "5"], defaultJobs: 1).corpusMegabytes == 5)
        #expect(throws: UsageError.self) { try Options.parse(["--demo", "x"], defaultJobs: 1) }
        #expect(try Options.parse(["--make-corpus", "c"], defaultJobs: 1).makeCorpus == "c")
    }

    @Test("out of range and malformed values are usage errors that say the range")
    func badValues() {
        #expect(throws: UsageError(message: "--level must be a whole number from 1 to 9, not '0'")) {
            try Options.parse(["--level", "0", "x"], defaultJobs: 1)
        }
        #expect(throws: UsageError(message: "--segment-kib must be a whole number from 1 to 1048576, not '0'")) {
            try Options.parse(["--segment-kib", "0", "x"], defaultJobs: 1)
        }
        #expect(throws: UsageError(message: "--jobs needs a value")) { try Options.parse(["x", "--jobs"], defaultJobs: 1) }
    }

    @Test("--help says what --jobs means for every strategy, not only for segments")
    func jobsHelp() {
        let lines = Options.usage.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(where: { $0.contains("-j, --jobs N") }) else {
            Issue.record("no --jobs line in the help")
            return
        }
        let text = lines[start..<min(start + 3, lines.count)].joined(separator: " ")
        #expect(text.contains("parallel: segments compressed at once"))
        #expect(text.contains("actor: files handed to"))
        #expect(text.contains("main-actor:"))
        #expect(text.contains("unused"))
    }
}
