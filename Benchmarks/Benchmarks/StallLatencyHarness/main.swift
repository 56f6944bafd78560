// StallDetector's report latency, measured from outside as a program would
// see it: a stall is reported once, when it ends, so this times the ended
// report's arrival in the process-wide handler from the instant the block
// ended (the look that sees the end, the stack capture's symbolication, and
// for the pool the prompt probe that confirms the end), and checks the
// report's duration against the block's. Each block starts at a random phase
// of the watchdog's look cycle. Run by Scripts/stall-detector.sh.
//
//   ROUNDS=10 IDLE_SECONDS=10 StallLatencyHarness
//   BLOCK_MS=300 ROUNDS=20 IDLE_SECONDS=0 StallLatencyHarness   (blocks just above the threshold:
//                          how many are reported, and how many with stacks)
//   CONTINUOUS_SECONDS=10 ROUNDS=0 IDLE_SECONDS=0 StallLatencyHarness   (issue 39's runs
//                          under load: Continuous.swift)
//
// First, the idle cost: the process's CPU time over IDLE_SECONDS of sleep
// without the detector, then with it started (0 skips it).
import ConcurrencyToolkit
import HarnessSupport
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

let threshold = StallDetector.defaultThreshold
let interval = StallDetector.defaultProbeInterval
/// The promise: the ended report within one probe interval of the end for
/// the main actor, two for the pool (its end is confirmed by a prompt probe),
/// plus one interval for the look and the symbolication.
let bound = interval * 3
/// Long enough to be a stall at any phase of the look cycle (BLOCK_MS: shorter
/// ones, to see which lengths are reliably caught).
let block = Duration.milliseconds(Int(getenv("BLOCK_MS").map { String(cString: $0) } ?? "") ?? 900)
let rounds = Int(getenv("ROUNDS").map { String(cString: $0) } ?? "") ?? 10

struct Received: Sendable {
    var at: ContinuousClock.Instant
    var stall: ConcurrencyStall
}

let received = Mutex<[Received]>([])
ConcurrencyStallHandler.bootstrap(.custom { stall in
    let now = ContinuousClock.now
    received.withLock { $0.append(Received(at: now, stall: stall)) }
})

/// The process's CPU time (user + system, every thread), in seconds.
func cpuSeconds() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)  // an enum case in Glibc
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Percent of one core this idle process uses over `seconds` of sleep.
func idleCost(seconds: Int) async throws -> Double {
    let cpu = cpuSeconds()
    let start = ContinuousClock.now
    try await Task.sleep(for: .seconds(seconds))
    return (cpuSeconds() - cpu) / milliseconds(ContinuousClock.now - start) * 1000 * 100
}

// Idle cost first, without and then with the detector (issue 15: ≤ 1% of
// one core at the defaults, nothing when not started).
let idleSeconds = Int(getenv("IDLE_SECONDS").map { String(cString: $0) } ?? "") ?? 10
if idleSeconds > 0 {
    let off = try await idleCost(seconds: idleSeconds)
    StallDetector.start()
    try await Task.sleep(for: .seconds(1))  // every probe has run once
    let on = try await idleCost(seconds: idleSeconds)
    print("Idle process, \(idleSeconds) s of sleep each (getrusage): detector off \(format(off, places: 3))% of one core, "
        + "started at its defaults \(format(on, places: 3))%")
    print("")
}
StallDetector.start()

/// Blocks the calling thread until `deadline`, asleep in the kernel (read
/// from memory by the capture, never signalled).
@inline(never)
func blockThread(until deadline: ContinuousClock.Instant) {
    while ContinuousClock.now < deadline { usleep(1_000) }
}

/// One kind of block: how to cause it, and which reports are about it.
struct Case {
    var name: String
    /// Blocks, and returns the instant the block ended.
    var cause: @Sendable () async -> ContinuousClock.Instant
    var matches: @Sendable (ConcurrencyStall) -> Bool
}

let cores = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))

/// When the first of the blocked pool threads was free again.
final class PoolBlock: Sendable {
    let firstEnd = Mutex<ContinuousClock.Instant?>(nil)
}
let cases = [
    Case(
        name: "main actor blocked",
        cause: {
            await MainActor.run {
                blockThread(until: ContinuousClock.now + block)
                return ContinuousClock.now
            }
        },
        matches: { $0.kind == .mainActorBlocked }),
    Case(
        name: "pool (.medium) blocked, \(cores) threads",
        cause: {
            // The pool's block ends when its first thread is free again.
            let ended = PoolBlock()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<cores {
                    group.addTask(priority: .medium) {
                        blockThread(until: ContinuousClock.now + block)
                        let now = ContinuousClock.now
                        ended.firstEnd.withLock { if $0 == nil { $0 = now } }
                    }
                }
            }
            return ended.firstEnd.withLock { $0 } ?? .now
        },
        // Any priority: one block reported at two priorities is two reports.
        matches: { $0.kind == .cooperativePoolBlocked }),
]


// Let every probe run once (the main actor's needs the main queue drained).
try await Task.sleep(for: .seconds(1))
if let seconds = getenv("CONTINUOUS_SECONDS").flatMap({ Int(String(cString: $0)) }), seconds > 0 {
    try await continuousRuns(
        seconds: seconds, cores: cores, received: { received.withLock { $0.map(\.stall) } },
        reset: { received.withLock { $0.removeAll() } })
}
print("StallDetector report latency, defaults (threshold \(milliseconds(threshold)) ms, probe interval \(milliseconds(interval)) ms, bound \(milliseconds(bound)) ms after the end), 1 + \(rounds) blocks of \(milliseconds(block)) ms per case")
print("")
print("| block | first report after the end | blocks after it | reported (with stacks) | one ended report | after the end: min | median | max | within bound | ended duration ÷ block, median (min–max) |")
print("|---|---|---|---|---|---|---|---|---|---|")
for test in cases where rounds > 0 {
    var first = Double.nan
    var latencies: [Double] = []
    var ratios: [Double] = []
    var single = 0
    var reported = 0
    var withStacks = 0
    // Round 0 is the first stall of its kind: its report includes the
    // one-time reading of the binary's debug information (symbolication).
    for round in 0...rounds {
        try await Task.sleep(for: .milliseconds(Int.random(in: 300...400)))
        received.withLock { $0.removeAll() }
        let end = await test.cause()
        // A stall is reported once, when it ends: wait for that report (the
        // first of a kind reads the binary's debug information, which can
        // take longer than any fixed wait: with no report the row printed
        // nan), then well past the bound, so a late or second report is seen too.
        let patience = ContinuousClock.now + .seconds(30)
        while !received.withLock({ $0.contains { test.matches($0.stall) && !$0.stall.isOngoing } }),
            ContinuousClock.now < patience
        {
            try await Task.sleep(for: .milliseconds(1))
        }
        try await Task.sleep(for: interval * 8)
        let reports = received.withLock { $0 }.filter { test.matches($0.stall) }
        let ended = reports.filter { !$0.stall.isOngoing }
        let latency = ended.first.map { milliseconds($0.at - end) }
        guard round > 0 else {
            first = latency ?? .nan
            continue
        }
        if ended.count == 1 && reports.count == 1 { single += 1 }
        if !ended.isEmpty { reported += 1 }
        if ended.contains(where: { !$0.stall.threads.isEmpty }) { withStacks += 1 }
        if let latency { latencies.append(latency) }
        if let report = ended.first { ratios.append(milliseconds(report.stall.duration) / milliseconds(block)) }
    }
    latencies.sort()
    ratios.sort()
    let within = latencies.filter { $0 <= milliseconds(bound) }.count
    print("| \(test.name) | \(format(first)) ms | \(rounds) | \(reported) (\(withStacks)) | \(single) of \(rounds) | \(format(latencies.first ?? .nan)) ms | \(format(median(latencies))) ms "
        + "| \(format(latencies.last ?? .nan)) ms | \(within) of \(rounds) | \(format(median(ratios), places: 3)) (\(format(ratios.first ?? .nan, places: 3))–\(format(ratios.last ?? .nan, places: 3))) |")
}
StallDetector.stop()
