import Testing
@testable import FileSqueezerCore
import TestSupport

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

    @Test("every option, in both --option value and --option=value forms")
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

    @Test("-n/--no-name and -N/--name as gzip spells them: the last one wins, storing the name by default")
    func name() throws {
        #expect(try Options.parse(["x"], defaultJobs: 1).name)
        #expect(try !Options.parse(["-n", "x"], defaultJobs: 1).name)
        #expect(try !Options.parse(["-N", "--no-name", "x"], defaultJobs: 1).name)
        #expect(try Options.parse(["-rn", "--name", "x"], defaultJobs: 1).name)
        #expect(try Options.parse(["-nN", "x"], defaultJobs: 1).name)
        #expect(throws: UsageError.self) { try Options.parse(["--name=yes", "x"], defaultJobs: 1) }
    }

    @Test("the stall detector runs with --detect-stalls, and with every option that records the run")
    func detectStalls() throws {
        #expect(try !Options.parse(["x"], defaultJobs: 1).detectsStalls)
        for flags in [["--detect-stalls"], ["--stats"], ["--trace", "t.json"], ["--timeline=t.svg"]] {
            #expect(try Options.parse(flags + ["x"], defaultJobs: 1).detectsStalls, "\(flags)")
        }
        #expect(throws: UsageError.self) { try Options.parse(["--detect-stalls=yes", "x"], defaultJobs: 1) }
        #expect(Options.usage.contains("--detect-stalls"))
    }

    @Test("--synchronous, as gzip spells it: off by default, a flag without a value")
    func synchronous() throws {
        #expect(try !Options.parse(["x"], defaultJobs: 1).synchronous)
        #expect(try Options.parse(["--synchronous", "x"], defaultJobs: 1).synchronous)
        #expect(throws: UsageError.self) { try Options.parse(["--synchronous=no", "x"], defaultJobs: 1) }
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

    @Test("gzip's spellings: -1 … -9, --fast, --best, -k/--keep, -V/--version")
    func gzipSpellings() throws {
        for level in 1...9 { #expect(try Options.parse(["-\(level)", "x"], defaultJobs: 1).level == level) }
        #expect(try Options.parse(["--fast", "x"], defaultJobs: 1).level == 1)
        #expect(try Options.parse(["--best", "x"], defaultJobs: 1).level == 9)
        #expect(try Options.parse(["-k", "--keep", "x"], defaultJobs: 1) == Options.parse(["x"], defaultJobs: 1))
        #expect(try Options.parse(["-V"], defaultJobs: 1).version)
        #expect(try Options.parse(["--version"], defaultJobs: 1).version)
    }

    @Test("short flags combine as getopt does; a value ends the cluster")
    func combinedShortFlags() throws {
        let options = try Options.parse(["-rqf9", "-j2", "-oout", "x"], defaultJobs: 1)
        #expect(options.recursive && options.quiet && options.force)
        #expect(options.level == 9 && options.jobs == 2 && options.output == "out")
        let spaced = try Options.parse(["-rj", "3", "-o", "dir", "x"], defaultJobs: 1)
        #expect(spaced.recursive && spaced.jobs == 3 && spaced.output == "dir" && spaced.folder == "x")
        #expect(throws: UsageError(message: "unknown option '-z' in '-rz'")) { try Options.parse(["-rz", "x"], defaultJobs: 1) }
        #expect(throws: UsageError(message: "-j needs a value")) { try Options.parse(["x", "-rj"], defaultJobs: 1) }
    }

    @Test("=value only for options that take a value; names are never empty")
    func strictValues() {
        #expect(throws: UsageError(message: "--quiet takes no value (give '--quiet' alone)")) {
            try Options.parse(["--quiet=no", "x"], defaultJobs: 1)
        }
        #expect(throws: UsageError(message: "--force takes no value (give '--force' alone)")) {
            try Options.parse(["--force=yes", "x"], defaultJobs: 1)
        }
        #expect(throws: UsageError(message: "--output needs a name, not an empty string")) {
            try Options.parse(["--output", "", "x"], defaultJobs: 1)
        }
        #expect(throws: UsageError(message: "--trace needs a name, not an empty string")) {
            try Options.parse(["--trace=", "x"], defaultJobs: 1)
        }
        #expect(throws: UsageError(message: "FOLDER is empty: give the folder to compress ('.' for this one)")) {
            try Options.parse([""], defaultJobs: 1)
        }
        #expect(throws: UsageError(message: "unknown option '--frob'")) { try Options.parse(["--frob=1", "x"], defaultJobs: 1) }
    }

    @Test("--help lists gzip's spellings and the exit statuses")
    func helpText() {
        for text in ["-1 ... -9", "--fast", "--best", "-k, --keep", "-V, --version", "-rq", "128 + N"] {
            #expect(Options.usage.contains(text), "missing \(text)")
        }
    }
}
