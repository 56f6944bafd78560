import ConcurrencyToolkit
import Foundation

/// The whole command line tool; the `file-squeezer` executable only calls this.
///
/// ```swift
/// exit(await FileSqueezerCommand.main(Array(CommandLine.arguments.dropFirst())))
/// ```
///
/// Returns the exit status: 0 every file compressed, 1 some file failed,
/// 2 usage error (including a missing or non-folder FOLDER), 130 interrupted
/// by SIGINT (work cancelled, temporary files removed, finished files kept).
public enum FileSqueezerCommand {
    @MainActor
    public static func main(_ arguments: [String]) async -> Int32 {
        let interrupt = InterruptSignal()
        let options: Options
        do {
            options = try Options.parse(arguments, defaultJobs: ProcessInfo.processInfo.activeProcessorCount)
        } catch {
            Terminal.error("file-squeezer: \(error)\nRun 'file-squeezer --help' for usage.\n")
            return 2
        }
        if options.help {
            Terminal.out(Options.usage + "\n")
            return 0
        }
        if let folder = options.makeCorpus {
            return makeCorpus(in: folder, megabytes: options.corpusMegabytes)
        }

        var folder = options.folder ?? ""
        if options.demo {
            guard let demoFolder = makeDemoFolder(megabytes: options.corpusMegabytes) else { return 1 }
            folder = demoFolder
        }
        let discovery: Discovery
        do {
            discovery = try discoverFiles(in: folder, recursive: options.recursive, output: options.output)
        } catch {
            Terminal.error("file-squeezer: \(error)\n")
            return 2
        }
        if !options.quiet {
            for note in discovery.notes { Terminal.error("file-squeezer: \(note)\n") }
        }

        let temporaryFiles = TemporaryFiles()
        let mode: TerminalDisplay.Mode = options.quiet || options.json ? .quiet : Terminal.isInteractive ? .live : .lines
        let squeezer = Squeezer(
            strategy: options.strategy, jobs: options.jobs,
            compressor: FileCompressor(
                level: options.level, force: options.force, segmentSize: options.segmentKiB * 1024,
                temporaryFiles: temporaryFiles),
            placement: options.placement, display: TerminalDisplay(mode: mode))
        let work = Task { @MainActor in
            guard options.records else { return await squeezer.run(discovery) }
            let (report, trace) = await withTraceRecording { await squeezer.run(discovery) }
            writeRecording(trace, options: options)
            return report
        }
        interrupt.onInterrupt { work.cancel() }
        let report = await work.value
        // Every job removes its own temporary file; this catches any a job
        // could not reach (and is a no-op otherwise).
        temporaryFiles.removeAll()

        if options.json {
            Terminal.out(json(report) + "\n")
        } else {
            Terminal.out(summary(report))
        }
        if options.demo, !options.json {
            Terminal.out("\nThe demo folder is \(folder) (originals and .gz side by side).\nRemove it with: rm -r \(folder)\n")
        }
        return report.interrupted ? 130 : report.exitStatus
    }

    static func summary(_ report: RunReport) -> String {
        var text = ""
        if report.interrupted {
            text += "Interrupted: \(report.compressed) files finished, \(report.notFinished) not; no temporary files left.\n"
        }
        let percent = formatDecimal(report.ratio * 100, 1)
        text += "Squeezed \(report.compressed) files: \(formatBytes(report.bytesIn)) -> \(formatBytes(report.bytesOut)) "
            + "(\(percent)%) in \(formatDecimal(report.wallSeconds, 2)) s\n"
        let placement = report.strategy == .parallel ? " (deflate on \(report.placement.rawValue))" : ""
        text += "Strategy \(report.strategy.rawValue)\(placement), \(report.jobs) jobs: parallelism \(formatDecimal(report.parallelism, 2))x, "
            + "longest main-actor stall \(formatDecimal(report.longestMainActorStallMilliseconds, 0)) ms\n"
        if report.failed > 0 { text += "\(report.failed) files failed (see the messages above).\n" }
        return text
    }

    static func json(_ report: RunReport) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        guard let data = try? encoder.encode(report) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Writes what `--trace`, `--timeline` and `--stats` asked for; a file that
    /// cannot be written is reported but does not fail the run.
    private static func writeRecording(_ trace: Trace, options: Options) {
        let outputs = [
            (options.trace, "trace", { trace.chromeTraceJSON() }),
            (options.timeline, "timeline", { trace.svgTimeline(title: "file-squeezer") }),
        ]
        for case let (path?, what, render) in outputs {
            do {
                try render().write(toFile: path, atomically: true, encoding: .utf8)
                if !options.quiet { Terminal.error("file-squeezer: \(what) written to \(path)\n") }
            } catch {
                Terminal.error("file-squeezer: cannot write the \(what) to \(path): \(error.localizedDescription)\n")
            }
        }
        if options.stats {
            // stdout carries only the JSON summary under --json.
            let stats = trace.summary()
            if options.json { Terminal.error(stats) } else { Terminal.out(stats) }
        }
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

    private static func makeDemoFolder(megabytes: Int) -> String? {
        let base = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp") + "/file-squeezer-demo-XXXXXX"
        var template = Array(base.utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            Terminal.error("file-squeezer: cannot create a demo folder in \(base): \(String(cString: strerror(errno)))\n")
            return nil
        }
        let folder = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do {
            let (files, bytes) = try DemoCorpus.write(into: folder, megabytes: megabytes)
            Terminal.out("Made a demo folder with \(files) files (\(formatBytes(bytes))) of text-like and random data.\n\n")
            return folder
        } catch {
            Terminal.error("file-squeezer: \(error)\n")
            return nil
        }
    }
}
