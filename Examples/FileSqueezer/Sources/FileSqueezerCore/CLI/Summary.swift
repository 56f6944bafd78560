#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ConcurrencyToolkit

/// The end-of-run summary, as text for people or JSON for `--json`.
///
/// ```swift
/// Terminal.out(Summary.text(report, temporariesLeft: 0))   // "Squeezed 1 file: 4.2 MB -> 1.1 MB (26.2%) in 0.35 s" ...
/// ```
enum Summary {
    /// `temporariesLeft`: this run's temporary files that could not be
    /// removed (each named on standard error already).
    static func text(_ report: RunReport, temporariesLeft: Int) -> String {
        var text = ""
        if report.interrupted {
            let by = report.signal.map { " by \($0)" } ?? ""
            let left = temporariesLeft == 0 ? "no temporary files left" : "\(count(temporariesLeft, "temporary file")) left (named above)"
            text += "Interrupted\(by): \(count(report.compressed, "file")) finished, \(report.notFinished) not; \(left).\n"
        }
        let percent = formatDecimal(report.ratio * 100, 1)
        text += "Squeezed \(count(report.compressed, "file")): \(formatBytes(report.bytesIn)) -> \(formatBytes(report.bytesOut)) "
            + "(\(percent)%) in \(formatDecimal(report.wallSeconds, 2)) s\n"
        let placement = report.strategy == .parallel ? " (deflate on \(report.placement.rawValue))" : ""
        text += "Strategy \(report.strategy.rawValue)\(placement), \(count(report.jobs, "job")): "
            + "parallelism \(formatDecimal(report.parallelism, 2))x, "
            + "longest main-actor stall \(formatDecimal(report.longestMainActorStallMilliseconds, 0)) ms\n"
        if let stalls = report.stalls { text += stallLines(stalls) }
        if let contentions = report.contentions { text += contentionLines(contentions) }
        if report.failed > 0 { text += "\(count(report.failed, "file")) failed (see the messages above).\n" }
        return text
    }

    /// What the stall detector saw: a count, then per kind (and pool
    /// priority) how many, the longest and the function that blocked.
    ///
    /// ```
    /// Stalls of 250 ms or more: 2
    ///   main actor: 2, longest 1410 ms, blocked in compressWholeFile(...) at Examples/...:31
    /// ```
    static func stallLines(_ stalls: [RunStall]) -> String {
        let threshold = formatDecimal(StallDetector.defaultThreshold.seconds * 1000, 0)
        guard !stalls.isEmpty else { return "Stalls of \(threshold) ms or more: none\n" }
        var text = "Stalls of \(threshold) ms or more: \(stalls.count)\n"
        var groups: [(name: String, stalls: [RunStall])] = []
        for stall in stalls {
            let name = stall.isMainActor ? "main actor" : "cooperative pool (\(stall.priority ?? "?") priority)"
            if let index = groups.firstIndex(where: { $0.name == name }) {
                groups[index].stalls.append(stall)
            } else {
                groups.append((name, [stall]))
            }
        }
        for group in groups {
            let longest = group.stalls.max { $0.milliseconds < $1.milliseconds }!
            let ongoing = longest.ongoing ? " (still lasting at the end)" : ""
            let blamed = (group.stalls.first { $0.blockedIn != nil && $0 == longest }
                ?? group.stalls.first { $0.blockedIn != nil })?.blockedIn
            text += "  \(group.name): \(group.stalls.count), longest \(formatDecimal(longest.milliseconds, 0)) ms\(ongoing)"
                + (blamed.map { ", blocked in \($0)" } ?? ", no backtrace") + "\n"
        }
        return text
    }

    /// What the actor contention detector saw, summed up per actor: the
    /// calls that waited, the longest wait, and what the actor was running.
    ///
    /// ```
    /// Actor contention of 250 ms or more: 1 actor
    ///   actor ActorStrategy: 16 calls waited up to 2.3 s (queue 1 deep), held by compressWholeFile(...) at ...
    /// ```
    static func contentionLines(_ contentions: [RunContention]) -> String {
        let threshold = formatDecimal(StallDetector.defaultThreshold.seconds * 1000, 0)
        var actors: [String] = []
        for episode in contentions where !actors.contains(episode.actor) { actors.append(episode.actor) }
        guard !actors.isEmpty else { return "Actor contention of \(threshold) ms or more: none\n" }
        var text = "Actor contention of \(threshold) ms or more: \(count(actors.count, "actor"))\n"
        for actor in actors {
            let episodes = contentions.filter { $0.actor == actor }
            let longest = episodes.map(\.longestWaitMilliseconds).max() ?? 0
            let wait = longest >= 1000 ? "\(formatDecimal(longest / 1000, 1)) s" : "\(formatDecimal(longest, 0)) ms"
            let depth = episodes.map(\.maxQueueDepth).max() ?? 0
            let heldBy = episodes.first { $0.heldBy != nil }?.heldBy
            text += "  actor \(actor): \(count(episodes.reduce(0) { $0 + $1.jobs }, "call")) waited up to \(wait) "
                + "(queue \(depth) deep)" + (heldBy.map { ", held by \($0)" } ?? ", no backtrace") + "\n"
        }
        return text
    }

    static func json(_ report: RunReport) -> String {
        report.json.rendered()
    }

    /// "1 file", "2 files".
    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}

/// The process's CPU time (user and system, all threads) since ``start()``:
/// `--json`'s `cpuSeconds`. Over the wall time it is the share of the cores
/// the run got, not its parallelism (``WorkOverlap``): on a machine other
/// processes keep busy it drops for every strategy alike (about 0.67x at
/// load 4–6, issue 39).
///
/// ```swift
/// let usage = CPUUsage.start()
/// let report = await squeezer.run(discovery)
/// print(usage.cpuSeconds())   // 1.04
/// ```
struct CPUUsage {
    let cpu: Double

    static func start() -> CPUUsage { CPUUsage(cpu: processCPUSeconds()) }

    /// CPU seconds since ``start()``.
    func cpuSeconds() -> Double {
        max(0, Self.processCPUSeconds() - cpu)
    }

    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF_CONSTANT, &usage) == 0 else { return 0 }
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }
}

#if canImport(Glibc)
// Glibc imports RUSAGE_SELF as an enum case of __rusage_who.
private let RUSAGE_SELF_CONSTANT = __rusage_who_t(RUSAGE_SELF.rawValue)
#else
private let RUSAGE_SELF_CONSTANT = RUSAGE_SELF
#endif
