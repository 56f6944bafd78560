// Memory over time (issue 39, item 7): a long-running process that uses
// every part of the toolkit the way a server does, request after request,
// and samples its own resident set (VmRSS, /proc/self/status) and the
// allocator's bytes in use (mallinfo2) once a second. A leak shows as bytes
// in use that grow with the request count; memory the allocator keeps in
// its arenas shows as RSS above the bytes in use, flat once every thread
// has made its arena. Run by Scripts/memory-soak.sh.
//
//   SECONDS_TO_RUN=3600 WARMUP_SECONDS=120 DETECTORS=1 RATE=200 MemorySoakHarness
//
// One request: a hop onto a monitored actor from two tasks, a safe
// continuation resumed from another thread, one with a timeout that fires,
// one that leaks (reported, fallback returned), a blocking job, a throttled
// progress reporter made, fed and finished, and every TRANSIENT_EVERY-th
// request (50) a new monitored actor, used once and dropped. Every
// 10 seconds the actor is held past the contention threshold and the main
// actor is blocked past the stall threshold, so both detectors report,
// with stacks, all run long: the report paths (stack capture,
// symbolication, rate-limit tables) are soaked too, not only the quiet ones.
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

func environment(_ name: String, _ fallback: Int) -> Int {
    Int(getenv(name).map { String(cString: $0) } ?? "") ?? fallback
}

let secondsToRun = environment("SECONDS_TO_RUN", 600)
let warmupSeconds = environment("WARMUP_SECONDS", 120)
let detectors = environment("DETECTORS", 1) != 0
let rate = environment("RATE", 200)  // requests per second
let printEvery = environment("PRINT_EVERY", 60)
/// Every how many requests a monitored actor is made and dropped (0: never).
let transientEvery = environment("TRANSIENT_EVERY", 50)

/// The line of /proc/self/status named `key`, in kB.
func statusKB(_ key: String) -> Int {
    #if os(Linux)
    guard let file = fopen("/proc/self/status", "r") else { return -1 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, Int32(line.count), file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix(key + ":") {
            return Int(text.dropFirst(key.count + 1).filter { $0.isNumber }) ?? -1
        }
    }
    return -1
    #else
    return -1
    #endif
}

/// glibc's `malloc_info`, which the Glibc module does not declare.
typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
let mallocInfo: MallocInfo? = dlsym(nil, "malloc_info").map { unsafeBitCast($0, to: MallocInfo.self) }

/// What malloc holds for the program now (in use: its arenas' memory less
/// their free chunks, plus mmapped chunks), in kB, and how many arenas it
/// has made; -1 where `malloc_info` is missing.
func mallocState() -> (inUseKB: Int, arenas: Int) {
    var buffer: UnsafeMutablePointer<CChar>? = nil
    var size = 0
    guard let mallocInfo, let stream = open_memstream(&buffer, &size) else { return (-1, -1) }
    _ = mallocInfo(0, stream)
    fclose(stream)
    defer { free(buffer) }
    guard let buffer else { return (-1, -1) }
    let xml = String(cString: buffer)
    let arenas = xml.matches(of: /<heap nr=/).count
    // The process's totals follow the last arena's block.
    let totals = xml.ranges(of: "</heap>").last.map { xml[$0.upperBound...] } ?? xml[...]
    func value(_ tag: String, _ type: String) -> Int {
        guard let range = totals.firstRange(of: "<\(tag) type=\"\(type)\""),
              let match = totals[range.upperBound...].firstMatch(of: /size="(\d+)"/) else { return 0 }
        return Int(match.1) ?? 0
    }
    let inUse = value("system", "current") - value("total", "fast") - value("total", "rest") + value("total", "mmap")
    return (inUse / 1024, arenas)
}

/// One line on standard output, written at once (into a file too, where
/// `print` would keep it in a buffer until the end).
func say(_ text: String) {
    var line = text + "\n"
    line.withUTF8 { bytes in _ = write(1, bytes.baseAddress, bytes.count) }
}

/// Counts of what the detectors reported.
let stalls = Atomic<Int>(0)
let contentions = Atomic<Int>(0)
let misuses = Atomic<Int>(0)
ConcurrencyStallHandler.bootstrap(.custom { _ in stalls.add(1, ordering: .relaxed) })
ActorContentionHandler.bootstrap(.custom { _ in contentions.add(1, ordering: .relaxed) })
ContinuationMisuseHandler.bootstrap(.custom { _ in misuses.add(1, ordering: .relaxed) })

actor Account {
    let executor: MonitoredActorExecutor
    var total = 0
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
    init(label: String) { executor = MonitoredActorExecutor(label: label) }
    func add(_ amount: Int) { total &+= amount }
    /// Holds the actor past the contention threshold (a blocking call in an actor).
    func hold(_ duration: Duration) { sleepThread(duration) }
}

func sleepThread(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 { request = remaining }
}

let io = BlockingExecutor(width: 2, label: "soak-io")
/// The last continuation whose wait timed out, resumed late by the next.
let timedOut = Mutex<SafeContinuation<Int, any Error>?>(nil)
let account = Account(label: "soak-account")
let progressTotal = Atomic<Int>(0)

func request(_ number: Int) async {
    async let other: Void = account.add(1)
    await account.add(number)
    await other
    // A continuation resumed from another thread, as a callback API does.
    let value = await withSafeContinuation(ifLeaked: -1) { (continuation: SafeContinuation<Int, Never>) in
        Task.detached { _ = continuation.resume(returning: number) }
    }
    _ = value
    if number % 20 == 0 {
        // A timeout that fires (the continuation is resumed late, by the
        // next such request); and a leaked continuation: reported, fallback returned.
        _ = try? await withSafeThrowingContinuation(timeout: .milliseconds(1)) { (continuation: SafeContinuation<Int, any Error>) in
            let late = timedOut.withLock { held in
                defer { held = continuation }
                return held
            }
            _ = late?.resume(returning: 0)
        }
        _ = await withSafeContinuation(ifLeaked: 0) { (_: SafeContinuation<Int, Never>) in }
    }
    _ = try? await io.run { number &* 3 }
    let progress = ThrottledProgress<Int>(interval: .milliseconds(5)) { value in progressTotal.store(value, ordering: .relaxed) }
    for step in 0..<8 { progress.report(step) }
    await progress.finish()
    if transientEvery > 0, number % transientEvery == 0 {
        let transient = Account(label: "soak-transient-\(number % 1000)")
        await transient.add(1)
    }
}


if detectors {
    StallDetector.start()
    ActorContentionDetector.start(threshold: .milliseconds(50))
}
say("memory soak: \(secondsToRun) s, warm-up \(warmupSeconds) s, \(rate) requests/s, detectors \(detectors ? "on" : "off"), "
    + "MALLOC_ARENA_MAX=\(getenv("MALLOC_ARENA_MAX").map { String(cString: $0) } ?? "unset")")
say("     s   requests   RSS kB   malloc in use kB   arenas   threads   stalls   contentions   misuses")

struct Sample { var second: Double; var requests: Int; var rss: Int; var inUse: Int; var arenas: Int }
let start = ContinuousClock.now
var samples: [Sample] = []
samples.reserveCapacity(secondsToRun + 60)  // the harness's own memory does not grow
var requests = 0
var nextSample = start
var nextBurst = start + .seconds(5)
let period = Duration.seconds(1) / rate
var next = start
while ContinuousClock.now - start < .seconds(secondsToRun) {
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<10 { requests += 1; let number = requests; group.addTask { await request(number) } }
    }
    next += period * 10
    let now = ContinuousClock.now
    if now < next { try? await Task.sleep(until: next, clock: .continuous) } else { next = now }
    if now >= nextBurst {
        nextBurst += .seconds(10)
        // Reports with stacks: the actor held 80 ms while another task waits,
        // and the main actor (this loop) blocked 400 ms.
        async let waiter: Void = account.add(0)
        await account.hold(.milliseconds(80))
        await waiter
        sleepThread(.milliseconds(400))
    }
    if now >= nextSample {
        nextSample += .seconds(1)
        let second = milliseconds(now - start) / 1000
        let malloc = mallocState()
        let sample = Sample(second: second, requests: requests, rss: statusKB("VmRSS"), inUse: malloc.inUseKB, arenas: malloc.arenas)
        samples.append(sample)
        if samples.count == 1 || samples.count % printEvery == 0 {
            say("\(Int(second).description.leftPad(6)) \(requests.description.leftPad(10)) \(sample.rss.description.leftPad(8)) "
                + "\(sample.inUse.description.leftPad(18)) \(sample.arenas.description.leftPad(8)) \(statusKB("Threads").description.leftPad(9)) "
                + "\(stalls.load(ordering: .relaxed).description.leftPad(8)) \(contentions.load(ordering: .relaxed).description.leftPad(13)) "
                + "\(misuses.load(ordering: .relaxed).description.leftPad(9))")
        }
    }
}

/// Least-squares slope of `value` over the samples after the warm-up, per second.
func slope(_ samples: [Sample], _ value: (Sample) -> Int) -> Double {
    let after = samples.filter { $0.second >= Double(warmupSeconds) }
    guard after.count > 2 else { return .nan }
    let n = Double(after.count)
    let meanX = after.reduce(0) { $0 + $1.second } / n
    let meanY = after.reduce(0) { $0 + Double(value($1)) } / n
    let sxy = after.reduce(0) { $0 + ($1.second - meanX) * (Double(value($1)) - meanY) }
    let sxx = after.reduce(0) { $0 + ($1.second - meanX) * ($1.second - meanX) }
    return sxy / sxx
}
let atWarmup = samples.first { $0.second >= Double(warmupSeconds) } ?? samples.last!
let last = samples.last!
let peak = samples.filter { $0.second >= Double(warmupSeconds) }.map(\.rss).max() ?? last.rss
say("")
say("requests \(requests), stalls reported \(stalls.load(ordering: .relaxed)), contention episodes \(contentions.load(ordering: .relaxed)), misuses \(misuses.load(ordering: .relaxed))")
say("RSS: start \(samples.first!.rss) kB, after warm-up (\(Int(atWarmup.second)) s) \(atWarmup.rss) kB, end \(last.rss) kB, "
    + "peak after warm-up \(peak) kB; slope after warm-up \(format(slope(samples) { $0.rss } * 1024, places: 1)) B/s")
say("malloc arenas: after warm-up \(atWarmup.arenas), end \(last.arenas)")
say("malloc in use: after warm-up \(atWarmup.inUse) kB, end \(last.inUse) kB; slope after warm-up \(format(slope(samples) { $0.inUse } * 1024, places: 1)) B/s; "
    + "change per 1000 requests after warm-up \(format(Double(last.inUse - atWarmup.inUse) * 1000 / Double(max(1, last.requests - atWarmup.requests)), places: 3)) kB")

extension String {
    func leftPad(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
