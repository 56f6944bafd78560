/// The parsed command line.
struct Options: Sendable, Equatable {
    var folder: String?
    var jobs: Int
    var level = 6
    var force = false
    var quiet = false
    var json = false
    var recursive = false
    var output: String?
    var strategy = Strategy.parallel
    var placement = DeflatePlacement.lanes
    var demo = false
    /// Files larger than this are split into segments of this many KiB,
    /// compressed in parallel (stage 3 only; pigz's `-b`).
    var segmentKiB = FileCompressor.defaultSegmentSize / 1024
    /// Size of the corpus made by `--demo` or `--make-corpus`, in MB.
    var corpusMegabytes = 32
    /// Write the demo corpus here and exit (for benchmarks).
    var makeCorpus: String?
    /// Record the run and write a Chrome trace (JSON) here.
    var trace: String?
    /// Record the run and write an SVG timeline here.
    var timeline: String?
    /// Record the run and print the summary statistics.
    var stats = false
    var help = false

    init(jobs: Int) { self.jobs = jobs }

    /// Whether the run is recorded with the toolkit's Diagnostics.
    var records: Bool { trace != nil || timeline != nil || stats }
}

/// The command line is wrong; the message says how. Exit status 2.
struct UsageError: Error, Equatable, CustomStringConvertible {
    let message: String
    var description: String { message }
}

extension Options {
    /// Parses `arguments` (without the program name).
    ///
    /// ```swift
    /// let options = try Options.parse(["--jobs", "2", "--level", "9", "photos"], defaultJobs: 2)
    /// ```
    ///
    /// Accepts `--name value` and `--name=value`. Throws ``UsageError`` for an
    /// unknown option, a missing or out-of-range value, or a wrong number of folders.
    static func parse(_ arguments: [String], defaultJobs: Int) throws(UsageError) -> Options {
        var options = Options(jobs: max(1, defaultJobs))
        var remaining = arguments[...]
        var folders: [String] = []
        while let argument = remaining.popFirst() {
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard let next = remaining.popFirst() else { throw UsageError(message: "\(name) needs a value") }
                return next
            }
            func number(in range: ClosedRange<Int>) throws(UsageError) -> Int {
                let text = try value()
                guard let number = Int(text), range.contains(number) else {
                    throw UsageError(message: "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
                }
                return number
            }
            switch name {
            case "-h", "--help": options.help = true
            case "--jobs", "-j": options.jobs = try number(in: 1...1024)
            case "--level": options.level = try number(in: 1...9)
            case "--segment-kib": options.segmentKiB = try number(in: 1...(1 << 20))
            case "--force", "-f": options.force = true
            case "--quiet", "-q": options.quiet = true
            case "--json": options.json = true
            case "--recursive", "-r": options.recursive = true
            case "--output", "-o": options.output = try value()
            case "--strategy":
                let text = try value()
                guard let strategy = Strategy(rawValue: text) else {
                    throw UsageError(message: "--strategy must be one of \(Strategy.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
                }
                options.strategy = strategy
            case "--deflate-on":
                let text = try value()
                guard let placement = DeflatePlacement(rawValue: text) else {
                    throw UsageError(message: "--deflate-on must be one of \(DeflatePlacement.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
                }
                options.placement = placement
            case "--trace": options.trace = try value()
            case "--timeline": options.timeline = try value()
            case "--stats": options.stats = true
            case "--demo": options.demo = true
            case "--corpus-mb": options.corpusMegabytes = try number(in: 1...100_000)
            case "--make-corpus": options.makeCorpus = try value()
            case "--":
                folders.append(contentsOf: remaining)
                remaining = []
            default:
                if argument.hasPrefix("-"), argument != "-" {
                    throw UsageError(message: "unknown option '\(argument)'")
                }
                folders.append(argument)
            }
        }
        if options.help { return options }
        if options.demo || options.makeCorpus != nil {
            guard folders.isEmpty else { throw UsageError(message: "--demo and --make-corpus take no FOLDER") }
            return options
        }
        guard folders.count == 1 else {
            throw UsageError(message: folders.isEmpty ? "missing FOLDER" : "give exactly one FOLDER, not \(folders.count)")
        }
        options.folder = folders[0]
        return options
    }

    /// The text `--help` prints.
    static let usage = """
        USAGE: file-squeezer [options] FOLDER
               file-squeezer --demo

        Compresses every regular file in FOLDER to gzip format, in parallel,
        writing NAME.gz beside each original. Originals are never changed.

        OPTIONS:
          -j, --jobs N          parallel: segments compressed at once; actor: files handed to
                                the actor at once (it compresses one at a time); main-actor:
                                unused (default: active processor count)
              --level 1-9       compression level (default 6)
              --segment-kib N   split files larger than N KiB into N KiB segments, compressed
                                in parallel into one gzip member, like pigz's -b (default 1024)
          -r, --recursive       include subfolders
          -o, --output DIR      write the .gz files under DIR, mirroring subfolders
          -f, --force           overwrite an existing .gz (without it, it is left and reported)
          -q, --quiet           print only errors and the summary
              --json            print a machine-readable summary on stdout
              --strategy S      main-actor | actor | parallel (default parallel):
                                the three stages of the WWDC22 talk, see the walkthrough
              --deflate-on P    lanes | pool (default lanes): where --strategy parallel runs
                                the blocking work; pool replays thread-pool exhaustion
              --trace FILE      record the run as a Chrome trace (JSON; open it in ui.perfetto.dev)
              --timeline FILE   record the run as an SVG timeline, a lane per thread
              --stats           record the run and print what ran where, waits and concurrency
              --demo            make a demo folder in a temporary directory and squeeze it
              --corpus-mb N     size of the --demo / --make-corpus folder (default 32)
              --make-corpus DIR write the demo files into DIR and exit (for benchmarks)
          -h, --help            show this help

        Files ending in .gz, symbolic links, FIFOs and devices are skipped with a note.
        Ctrl-C stops all work, removes temporary files and exits with status 130.
        Exit status: 0 all files compressed, 1 some file failed, 2 usage error.
        """
}
