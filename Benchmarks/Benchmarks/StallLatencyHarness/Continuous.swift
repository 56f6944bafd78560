// Issue 39's two runs under load, with the detector at its defaults:
//
//   continuous blocking  every .medium pool thread blocks 300 ms at a time,
//                        back to back, for CONTINUOUS_SECONDS: how many
//                        reports of each kind (a main-actor stall that only
//                        mirrors the pool's belongs inside its report)
//   healthy handlers     HANDLERS tasks (16) each run 2 ms of CPU, then
//                        yield, for CONTINUOUS_SECONDS, beside HOGS busy
//                        processes (default 3 per core): stalls made by the
//                        host, not by the program
//
// The counts are read from each report's text, so the same harness measures
// a build from before the change.
import ConcurrencyToolkit
import HarnessSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

struct Tally {
    var main = 0
    var pool = 0
    var mainInsidePool = 0
    var hostsFault = 0
    var poolDurations: [Double] = []

    init(_ reports: [ConcurrencyStall]) {
        let verbose = getenv("PRINT_REPORTS") != nil
        for stall in reports where !stall.isOngoing {
            let text = stall.description
            if verbose { print("  " + (text.split(separator: "\n").prefix(3).joined(separator: " / "))) }
            if stall.kind == .mainActorBlocked { main += 1 } else { pool += 1 }
            if text.contains("the main actor waited") || text.contains("the main actor, whose queue") { mainInsidePool += 1 }
            if text.contains("not this program's stall") { hostsFault += 1 }
            if stall.kind == .cooperativePoolBlocked { poolDurations.append(milliseconds(stall.duration)) }
        }
        poolDurations.sort()
    }

    var line: String {
        let range = poolDurations.isEmpty ? "–" : "\(format(poolDurations.first!, places: 0))–\(format(poolDurations.last!, places: 0)) ms"
        return "| \(main) | \(pool) (\(range)) | \(mainInsidePool) | \(hostsFault) |"
    }
}

@inline(never)
func spin(for duration: Duration) {
    let end = ContinuousClock.now + duration
    while ContinuousClock.now < end {}
}

/// Busy processes, as other programs on the machine (ended by `stop`).
func startHogs(_ count: Int) -> [pid_t] {
    (0..<count).compactMap { _ in
        var pid: pid_t = 0
        let words: [String] = ["/bin/sh", "-c", "while :; do :; done"]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        return posix_spawn(&pid, "/bin/sh", nil, nil, argv, environ) == 0 ? pid : nil
    }
}

func stopHogs(_ pids: [pid_t]) {
    for pid in pids {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
    }
}

func continuousRuns(seconds: Int, cores: Int, received: @Sendable () -> [ConcurrencyStall], reset: @Sendable () -> Void) async throws {
    let handlers = Int(getenv("HANDLERS").map { String(cString: $0) } ?? "") ?? 16
    let hogCount = Int(getenv("HOGS").map { String(cString: $0) } ?? "") ?? cores * 3
    print("Issue 39 runs, \(seconds) s each, defaults (ended reports; load before: \(loadAverages().map { "\($0)" }.joined(separator: "/")))")
    print("")
    print("| run | main-actor reports | pool reports (durations) | pool reports holding a main-actor stall | host's (isCausedByHost) |")
    print("|---|---|---|---|---|")
    reset()
    let until = ContinuousClock.now + .seconds(seconds)
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<cores {
            group.addTask(priority: .medium) {
                while ContinuousClock.now < until {
                    blockThread(until: ContinuousClock.now + .milliseconds(300))
                    await Task.yield()
                }
            }
        }
    }
    try await Task.sleep(for: .seconds(1))
    print("| continuous blocking, \(cores) × 300 ms blocks back to back " + Tally(received()).line)

    let hogs = startHogs(hogCount)
    try await Task.sleep(for: .milliseconds(500))
    reset()
    let end = ContinuousClock.now + .seconds(seconds)
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<handlers {
            group.addTask(priority: .medium) {
                while ContinuousClock.now < end {
                    spin(for: .milliseconds(2))
                    await Task.yield()
                }
            }
        }
    }
    try await Task.sleep(for: .seconds(1))
    let tally = Tally(received())
    stopHogs(hogs)
    print("| \(handlers) healthy 2 ms handlers beside \(hogs.count) busy processes " + tally.line)
    print("")
}

