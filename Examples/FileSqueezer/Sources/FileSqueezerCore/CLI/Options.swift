/// The parsed command line.
struct Options: Sendable, Equatable {
    var folder: String?
    var jobs: Int
    var level = 6
    var force = false
    /// Store the original's name and modification time in each gzip header
    /// (gzip's default, `-N`); `-n` stores neither.
    var name = true
    /// `fsync` each `.gz` before it is put in place, and its folder after (gzip's `--synchronous`).
    var synchronous = false
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
    /// Start the toolkit's StallDetector for the run and report its stalls.
    var detectStalls = false
    var help = false
    var version = false

    init(jobs: Int) { self.jobs = jobs }

    /// Whether the run is recorded with the toolkit's Diagnostics.
    var records: Bool { trace != nil || timeline != nil || stats }

    /// Whether the run starts the toolkit's `StallDetector`: asked for, or
    /// the run is recorded (the stalls then show in the trace too).
    var detectsStalls: Bool { detectStalls || records }
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
    /// let options = try Options.parse(["-rq", "-j2", "--level=9", "photos"], defaultJobs: 2)
    /// ```
    ///
    /// Accepts `--option value` and `--option=value` for options that take a
    /// value (a flag given `=value` is an error, not silently on), gzip's
    /// spellings (`-1`…`-9`, `--fast`, `--best`, `-k`/`--keep`, `-V`/`--version`,
    /// `-n`/`--no-name`, `-N`/`--name`, `--synchronous`),
    /// and short flags combined as getopt does: `-rq`, `-j2`, `-9r`, `-oDIR`.
    /// Throws ``UsageError`` for an unknown option, a missing, empty or
    /// out-of-range value, or a wrong number of folders (or an empty one).
    static func parse(_ arguments: [String], defaultJobs: Int) throws(UsageError) -> Options {
        var options = Options(jobs: max(1, defaultJobs))
        var remaining = arguments[...]
        var folders: [String] = []
        while let argument = remaining.popFirst() {
            if argument == "--" {
                folders.append(contentsOf: remaining)
                remaining = []
            } else if argument.hasPrefix("--") {
                let equals = argument.firstIndex(of: "=")
                let name = equals.map { String(argument[..<$0]) } ?? argument
                guard let option = Self.option(named: name) else { throw UsageError(message: "unknown option '\(name)'") }
                if option.takesValue {
                    let value: String
                    if let equals { value = String(argument[argument.index(after: equals)...]) } else {
                        guard let next = remaining.popFirst() else { throw UsageError(message: "\(name) needs a value") }
                        value = next
                    }
                    try option.apply(&options, name, value)
                } else {
                    guard equals == nil else { throw UsageError(message: "\(name) takes no value (give '\(name)' alone)") }
                    try option.apply(&options, name, "")
                }
            } else if argument.hasPrefix("-"), argument.count > 1 {
                // A cluster of short options: flags, then at most one that
                // takes a value (the rest of the cluster, or the next argument).
                var letters = argument.dropFirst()
                while let letter = letters.popFirst() {
                    guard let option = Self.option(short: letter) else {
                        throw UsageError(message: "unknown option '-\(letter)'\(argument.count > 2 ? " in '\(argument)'" : "")")
                    }
                    let name = "-\(letter)"
                    guard option.takesValue else {
                        try option.apply(&options, name, String(letter))
                        continue
                    }
                    let value: String
                    if !letters.isEmpty { value = String(letters) } else {
                        guard let next = remaining.popFirst() else { throw UsageError(message: "\(name) needs a value") }
                        value = next
                    }
                    try option.apply(&options, name, value)
                    letters = ""
                }
            } else {
                folders.append(argument)
            }
        }
        if options.help || options.version { return options }
        if options.demo || options.makeCorpus != nil {
            guard folders.isEmpty else { throw UsageError(message: "--demo and --make-corpus take no FOLDER") }
            return options
        }
        guard folders.count == 1 else {
            throw UsageError(message: folders.isEmpty ? "missing FOLDER" : "give exactly one FOLDER, not \(folders.count)")
        }
        guard !folders[0].isEmpty else { throw UsageError(message: "FOLDER is empty: give the folder to compress ('.' for this one)") }
        options.folder = folders[0]
        return options
    }

    /// One option: whether it takes a value, and what it does with it
    /// (`name` as the user spelled it, for messages).
    private struct Option {
        let takesValue: Bool
        let apply: (inout Options, _ name: String, _ value: String) throws(UsageError) -> Void

        static func flag(_ set: @escaping (inout Options) -> Void) -> Option {
            Option(takesValue: false) { options, _, _ in set(&options) }
        }

        static func number(_ range: ClosedRange<Int>, _ set: @escaping (inout Options, Int) -> Void) -> Option {
            Option(takesValue: true) { (options, name, text) throws(UsageError) in
                guard let number = Int(text), range.contains(number) else {
                    throw UsageError(message: "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), not '\(text)'")
                }
                set(&options, number)
            }
        }

        /// A file or folder name: never empty (an empty one would silently mean ".").
        static func path(_ set: @escaping (inout Options, String) -> Void) -> Option {
            Option(takesValue: true) { (options, name, text) throws(UsageError) in
                guard !text.isEmpty else { throw UsageError(message: "\(name) needs a name, not an empty string") }
                set(&options, text)
            }
        }

        static func choice<T: RawRepresentable & CaseIterable>(_ set: @escaping (inout Options, T) -> Void) -> Option
        where T.RawValue == String {
            Option(takesValue: true) { (options, name, text) throws(UsageError) in
                guard let value = T(rawValue: text) else {
                    throw UsageError(message: "\(name) must be one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'")
                }
                set(&options, value)
            }
        }
    }

    private static func option(named name: String) -> Option? {
        switch name {
        case "--help": .flag { $0.help = true }
        case "--version": .flag { $0.version = true }
        case "--jobs": .number(1...1024) { $0.jobs = $1 }
        case "--level": .number(1...9) { $0.level = $1 }
        case "--fast": .flag { $0.level = 1 }
        case "--best": .flag { $0.level = 9 }
        case "--segment-kib": .number(1...(1 << 20)) { $0.segmentKiB = $1 }
        case "--force": .flag { $0.force = true }
        case "--name": .flag { $0.name = true }
        case "--no-name": .flag { $0.name = false }
        case "--synchronous": .flag { $0.synchronous = true }
        case "--keep": .flag { _ in }  // originals are always kept
        case "--quiet": .flag { $0.quiet = true }
        case "--json": .flag { $0.json = true }
        case "--recursive": .flag { $0.recursive = true }
        case "--output": .path { $0.output = $1 }
        case "--strategy": .choice { $0.strategy = $1 as Strategy }
        case "--deflate-on": .choice { $0.placement = $1 as DeflatePlacement }
        case "--trace": .path { $0.trace = $1 }
        case "--timeline": .path { $0.timeline = $1 }
        case "--stats": .flag { $0.stats = true }
        case "--detect-stalls": .flag { $0.detectStalls = true }
        case "--demo": .flag { $0.demo = true }
        case "--corpus-mb": .number(1...100_000) { $0.corpusMegabytes = $1 }
        case "--make-corpus": .path { $0.makeCorpus = $1 }
        default: nil
        }
    }

    private static func option(short letter: Character) -> Option? {
        if let digit = letter.wholeNumberValue, letter.isASCII, (1...9).contains(digit) {
            return .flag { $0.level = digit }
        }
        let long: [Character: String] = [
            "h": "--help", "V": "--version", "j": "--jobs", "f": "--force", "k": "--keep",
            "q": "--quiet", "r": "--recursive", "o": "--output",
            "n": "--no-name", "N": "--name",
        ]
        return long[letter].flatMap { option(named: $0) }
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
          -1 ... -9, --level N  compression level: -1 (or --fast) fastest, -9 (or --best)
                                smallest (default 6)
              --segment-kib N   split files larger than N KiB into N KiB segments, compressed
                                in parallel into one gzip member, like pigz's -b (default 1024)
          -r, --recursive       include subfolders
          -o, --output DIR      write the .gz files under DIR, mirroring subfolders
          -f, --force           overwrite an existing .gz (without it, it is left and reported),
                                and compress files with other hard links (skipped otherwise)
          -n, --no-name         store neither the original's name nor its time in the .gz header
          -N, --name            store both (the default, as gzip does)
              --synchronous     flush each .gz to the disk before it gets its name, and its
                                folder after: slower, but it survives a power loss
          -q, --quiet           print only errors and the summary
              --json            print a machine-readable summary on stdout
              --strategy S      main-actor | actor | concurrent | parallel (default parallel):
                                the WWDC22 talk's stages and its fix, see the walkthrough
              --deflate-on P    lanes | pool (default lanes): where --strategy parallel runs
                                the blocking work; pool replays thread-pool exhaustion
              --trace FILE      record the run as a Chrome trace (JSON; open it in ui.perfetto.dev)
              --timeline FILE   record the run as an SVG timeline, a lane per thread
              --stats           record the run and print what ran where, waits and concurrency
              --detect-stalls   report stalls of 250 ms or more (main actor, thread pool) and the
                                function that blocked, with the toolkit's StallDetector, and
                                actor contention of 250 ms or more and what held the actor, with
                                its ActorContentionDetector (on with --stats, --trace and
                                --timeline too)
              --demo            make a demo folder in a temporary directory and squeeze it
              --corpus-mb N     size of the --demo / --make-corpus folder (default 32)
              --make-corpus DIR write the demo files into DIR and exit (for benchmarks)
          -k, --keep            accepted for gzip's sake: originals are always kept
          -h, --help            show this help
          -V, --version         show the version

        Short options combine (-rq, -j2, -9r). Options that take a value also
        accept --option=VALUE; --jobs above 4 per core is lowered to that, and
        lowered further if the open-file limit (ulimit -n) is too small.

        Files already compressed by their suffix as gzip sees it (.gz, .tgz, .taz, -gz,
        .z, -z, _z, in any case: .Z, .GZ), symbolic links, FIFOs, sockets and devices
        are skipped with a note (not with --force either), and so are files with
        other hard links, as gzip does, unless --force.
        SIGINT (Ctrl-C), SIGTERM, SIGHUP, SIGPIPE and SIGQUIT (Ctrl-\\) stop all work,
        remove temporary files and exit with 128 + the signal number (130 for Ctrl-C).
        Exit status: 0 all files compressed, 1 some file failed or stdout could not
        be written, 2 usage error, 128 + N stopped by signal N.
        """
}
