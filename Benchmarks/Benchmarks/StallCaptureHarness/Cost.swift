// `cost [ROWS]`: what one capture costs, on the thread that takes it (the
// watchdog's), as wall time:
//   - a thread asleep in the kernel (a pool thread in `poll`): its
//     /proc/self/task/TID/syscall read, its stack read from memory and
//     unwound, the file read again; no signal;
//   - a running thread (a pool thread in a busy loop): its state read, the
//     signal, the handler's backtrace() on that thread, the wait for it;
//   - the memory map (/proc/self/maps), read once per stall.
// ROUNDS (11) rounds, the three interleaved within each round; a round's
// figure is the median of its captures (CAPTURES, 200, per kind). With ROWS,
// writes one row per kind and round in method.py's format (wall_s = seconds
// per capture), for `method.py report-operations`.
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

/// A pool thread held in one state until `stop`: asleep in `poll`, or busy.
final class HeldThread: Sendable {
    let id = Atomic<UInt64>(0)
    let stop = Atomic<Bool>(false)

    init(busy: Bool) {
        Task.detached(priority: .medium) { [self] in
            id.store(_StackCaptureCost.currentThreadID, ordering: .releasing)
            var spins: UInt64 = 0
            while !stop.load(ordering: .relaxed) {
                if busy { spins &+= 1 } else { _ = poll(nil, 0, 1000) }
            }
            if spins == 42 { print("") }  // keeps the loop
        }
    }

    func waitForID() -> UInt64 {
        while id.load(ordering: .acquiring) == 0 { usleep(1000) }
        return id.load(ordering: .acquiring)
    }
}

func runCost(rowsPath: String?, rounds: Int, captures: Int) -> Bool {
    let asleep = HeldThread(busy: false)
    let busy = HeldThread(busy: true)
    let asleepID = asleep.waitForID()
    let busyID = busy.waitForID()
    defer {
        asleep.stop.store(true, ordering: .relaxed)
        busy.stop.store(true, ordering: .relaxed)
    }
    usleep(50_000)
    var rows = "round\tlabel\twall_s\tuser_s\tsys_s\trss_kib\tload1\n"
    var all: [String: [UInt64]] = [:]
    var frames: [String: Int] = [:]
    var misses: [String: Int] = [:]
    let labels = ["blocked thread (poll), read from memory", "running thread (busy loop), signalled", "memory map, once per stall"]
    for round in 0...rounds {  // round 0 warms up, not recorded
        let load = loadAverage()
        for label in labels {
            var times: [UInt64] = []
            var attempts = 0
            while times.count < captures && attempts < captures * 20 {
                attempts += 1
                var found = 0
                let time: UInt64? = switch label {
                case labels[0]: _StackCaptureCost.blockedCapture(thread: asleepID, frames: &found)
                case labels[1]: _StackCaptureCost.runningCapture(thread: busyID, frames: &found)
                default: _StackCaptureCost.memoryMapRead()
                }
                if let time {
                    times.append(time)
                    frames[label] = found
                } else if round > 0 {
                    misses[label, default: 0] += 1
                }
            }
            guard !times.isEmpty else {
                print("cost: no capture of the \(label) succeeded")
                return false
            }
            guard round > 0 else { continue }
            all[label, default: []].append(contentsOf: times)
            rows += "\(round)\t\(label)\t\(median(times.map(Double.init)) / 1e9)\t0\t0\t0\t\(load)\n"
        }
    }
    if let rowsPath {
        let file = fopen(rowsPath, "w")
        fputs(rows, file)
        fclose(file)
    }
    print("Stall capture cost, \(rounds) rounds × \(captures) captures per kind, on the capturing thread (wall time):")
    for label in labels {
        let times = all[label, default: []].sorted()
        guard !times.isEmpty else { continue }
        let microseconds = { (value: Double) in format(value / 1000, places: 1) }
        print("  \(label): median \(microseconds(median(times.map(Double.init)))) µs, min \(microseconds(Double(times[0]))) µs, "
            + "max \(microseconds(Double(times[times.count - 1]))) µs over \(times.count) captures"
            + (label == labels[2] ? "" : ", \(frames[label] ?? 0) frames") + "; missed (thread changed state): \(misses[label] ?? 0)")
    }
    return true
}
