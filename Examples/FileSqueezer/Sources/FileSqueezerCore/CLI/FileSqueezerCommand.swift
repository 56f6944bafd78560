import ConcurrencyToolkit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The whole command line tool; the `file-squeezer` executable only calls this.
///
/// ```swift
/// FileSqueezerCommand.blockSignalsBeforeAnyThreadStarts()   // first, before any thread exists
/// exit(await FileSqueezerCommand.main(Array(CommandLine.arguments.dropFirst())))
/// ```
///
/// Returns the exit status: 0 every file compressed, 1 some file failed or
/// standard output could not be written, 2 usage error (including a missing
/// or non-folder FOLDER), 128 + N stopped by signal N: SIGHUP 129, SIGINT
/// 130, SIGQUIT 131, SIGPIPE 141, SIGTERM 143 (work cancelled, temporary
/// files removed, finished files kept).
public enum FileSqueezerCommand {
    /// What `--version` prints.
    static let version = "0.1.0"

    /// Blocks the signals the app handles (SIGHUP, SIGINT, SIGQUIT, SIGPIPE,
    /// SIGTERM, SIGWINCH) in the calling thread and every thread started after
    /// it. Call it first in `main`, before anything starts a thread: then no
    /// signal is lost or acted on by default while the app starts, and
    /// ``main(_:)`` takes them all on one thread.
    ///
    /// ```swift
    /// FileSqueezerCommand.blockSignalsBeforeAnyThreadStarts()
    /// ```
    public static func blockSignalsBeforeAnyThreadStarts() {
        StopSignals.blockBeforeAnyThreadStarts()
    }

    /// The command line after the program name, each argument's bytes in
    /// ``FileName/display(_:)`` form: `CommandLine.arguments` would replace
    /// bytes that are not UTF-8, and a FOLDER named so would not be found.
    ///
    /// ```swift
    /// exit(await FileSqueezerCommand.main(FileSqueezerCommand.rawArguments()))
    /// ```
    public static func rawArguments() -> [String] {
        (1..<Int(CommandLine.argc)).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return "" }
            return FileName.display(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
        }
    }

    @MainActor
    public static func main(_ arguments: [String]) async -> Int32 {
        let signals = StopSignals.shared
        signals.startWatching()
        let status = await run(arguments, signals: signals)
        if let signal = signals.received { return 128 + signal }
        if let failure = Terminal.outputFailure {
            Terminal.error("file-squeezer: stdout: \(failure)\n")
            return 1
        }
        return status
    }

    @MainActor
    private static func run(_ arguments: [String], signals: StopSignals) async -> Int32 {
        let options: Options
        do {
            options = try Options.parse(arguments, defaultJobs: activeCores)
        } catch {
            Terminal.error("file-squeezer: \(error)\nRun 'file-squeezer --help' for usage.\n")
            return 2
        }
        if options.help {
            Terminal.out(Options.usage + "\n")
            return 0
        }
        if options.version {
            Terminal.out("file-squeezer \(version) (ConcurrencyToolkit's reference app)\n")
            return 0
        }
        if let folder = options.makeCorpus {
            return makeCorpus(in: folder, megabytes: options.corpusMegabytes)
        }

        // Started once, at launch, as a program of your own would: its main-actor
        // probe then runs before the first file can block the main actor.
        let stallWatch = options.detectsStalls ? StallWatch.start() : nil
        var folder = options.folder ?? ""
        if options.demo {
            guard let demoFolder = makeDemoFolder(megabytes: options.corpusMegabytes) else { return 1 }
            folder = demoFolder
        }
        var discovery: Discovery
        do {
            discovery = try await discoverFiles(
                in: folder, recursive: options.recursive, output: options.output, force: options.force)
        } catch {
            Terminal.error("file-squeezer: \(error)\n")
            return 2
        }
        let limit = JobLimit.decide(requested: options.jobs, strategy: options.strategy, cores: activeCores)
        discovery.notes += limit.notes
        if !options.quiet {
            for note in discovery.notes { Terminal.error("file-squeezer: \(note)\n") }
        }
        // Failures are never hidden by --quiet.
        for failure in discovery.failures {
            Terminal.error("file-squeezer: \(failure.path): \(failure.reason ?? "failed")\n")
        }
        if signals.received != nil { return 1 }  // main returns 128 + N

        let temporaryFiles = TemporaryFiles()
        let outputRoot = discovery.outputRoot
        signals.setCleanup {
            temporaryFiles.removeAll()
            outputRoot?.removeEmptyFoldersMade()
            // The forced exit prints no summary: this is its only word on them.
            nameLeftovers(temporaryFiles)
        }
        let live = Terminal.isInteractive && Terminal.movesCursor
        let mode: TerminalDisplay.Mode = options.quiet || options.json ? .quiet : live ? .live : .lines
        let display = TerminalDisplay(mode: mode)
        let squeezer = Squeezer(
            strategy: options.strategy, jobs: limit.jobs,
            compressor: FileCompressor(
                level: options.level, force: options.force, segmentSize: options.segmentKiB * 1024,
                storesName: options.name, synchronous: options.synchronous, temporaryFiles: temporaryFiles),
            placement: options.placement, display: display)
        // Only --json lists every file; failures are listed either way.
        squeezer.keepsEveryOutcome = options.json
        let usage = CPUUsage.start()
        let work = Task { @MainActor in
            guard options.records else { return (await squeeze(squeezer, discovery, stallWatch: stallWatch), true) }
            let (report, trace) = await withTraceRecording { await squeeze(squeezer, discovery, stallWatch: stallWatch) }
            return (report, writeRecording(trace, options: options))
        }
        signals.onStop { _ in work.cancel() }
        signals.onResize { Task { @MainActor in display.resized() } }
        var (report, recorded) = await work.value
        report.cpuSeconds = usage.cpuSeconds()
        report.signal = signals.received.map(StopSignals.name)
        // Every job removes its own temporary file; this catches any a job
        // could not reach (and is a no-op otherwise).
        temporaryFiles.removeAll()
        let temporariesLeft = nameLeftovers(temporaryFiles)
        // An interrupted run takes back the output folders it made for nothing.
        if report.interrupted { outputRoot?.removeEmptyFoldersMade() }
        report.files += discovery.failures
        report.failed += discovery.failures.count

        if options.json {
            Terminal.outUTF8(Summary.json(report) + "\n")
        } else {
            Terminal.out(Summary.text(report, temporariesLeft: temporariesLeft))
        }
        if options.demo, !options.json {
            Terminal.out("\nThe demo folder is \(folder) (originals and .gz side by side; the next --demo reuses it).\nRemove it with: rm -r \(folder)\n")
        }
        // A requested --trace or --timeline that was not written fails the run.
        return recorded ? report.exitStatus : max(report.exitStatus, 1)
    }

    private static var activeCores: Int { System.processorCount }

    /// Names on standard error each temporary file of this run that could
    /// not be removed and was not named yet, on the way out, forced or not.
    /// - Returns: How many it named.
    @discardableResult
    private static func nameLeftovers(_ temporaryFiles: TemporaryFiles) -> Int {
        let leftovers = temporaryFiles.takeLeftBehind()
        for leftover in leftovers {
            Terminal.error("file-squeezer: cannot remove this run's temporary file \(leftover); delete it yourself\n")
        }
        return leftovers.count
    }

    /// Runs the squeeze; with the stall detector started, its reports go into
    /// the report (and, inside a recording, into the trace) instead of stderr.
    @MainActor
    private static func squeeze(_ squeezer: Squeezer, _ discovery: Discovery, stallWatch: StallWatch?) async -> RunReport {
        guard let stallWatch else { return await squeezer.run(discovery) }
        var (report, stalls) = await stallWatch.watching { await squeezer.run(discovery) }
        StallWatch.stop()
        report.stalls = stalls
        report.contentions = stallWatch.contentions
        return report
    }

    /// Writes what `--trace`, `--timeline` and `--stats` asked for. A file
    /// that cannot be written is named with the reason.
    /// - Returns: Whether every file asked for was written (else the run exits 1).
    private static func writeRecording(_ trace: Trace, options: Options) -> Bool {
        var written = true
        let outputs = [
            (options.trace, "trace", { trace.chromeTraceJSON() }),
            (options.timeline, "timeline", { trace.svgTimeline(title: "file-squeezer") }),
        ]
        for case let (path?, what, render) in outputs {
            do {
                try System.writeOutput(render(), toPath: path)
                if !options.quiet { Terminal.error("file-squeezer: \(what) written to \(path)\n") }
            } catch {
                Terminal.error("file-squeezer: cannot write the \(what) to \(path): \(error.reason)\n")
                written = false
            }
        }
        if options.stats {
            // stdout carries only the JSON summary under --json.
            let stats = trace.summary()
            if options.json { Terminal.error(stats) } else { Terminal.out(stats) }
        }
        return written
    }

    private static func makeCorpus(in folder: String, megabytes: Int) -> Int32 {
        do {
            let (files, bytes) = try DemoCorpus.write(into: folder, megabytes: megabytes)
            Terminal.out("Wrote \(files) files, \(formatBytes(bytes)), to \(folder)\n")
            return 0
        } catch {
            Terminal.error("file-squeezer: \(error)\n")
            return 1
        }
    }

    /// One demo folder per user, `$TMPDIR/file-squeezer-demo-UID`, reused: each
    /// run empties it first, so running `--demo` again does not leave another
    /// corpus behind. A path that is not a folder of ours (a link someone
    /// planted, another user's folder) is refused, not emptied.
    private static func makeDemoFolder(megabytes: Int) -> String? {
        let folder = (System.environment("TMPDIR") ?? "/tmp") + "/file-squeezer-demo-\(getuid())"
        var info = stat()
        if lstat(folder, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid() else {
                Terminal.error("file-squeezer: \(folder) exists and is not a folder of yours; remove it or set TMPDIR\n")
                return nil
            }
            emptyFolder(folder)
        } else if mkdir(folder, 0o700) != 0 {
            Terminal.error("file-squeezer: cannot create the demo folder \(folder): \(String(cString: strerror(errno)))\n")
            return nil
        }
        do {
            let (files, bytes) = try DemoCorpus.write(into: folder, megabytes: megabytes)
            Terminal.out("Made a demo folder with \(files) files (\(formatBytes(bytes))) of text-like and random data.\n\n")
            return folder
        } catch {
            Terminal.error("file-squeezer: \(error)\n")
            return nil
        }
    }

    /// Removes the files of a previous demo run (the folder holds no folders).
    private static func emptyFolder(_ folder: String) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { unlink(folder + "/" + name) }
        }
    }
}
