// A plain release program that times the toolkit's primitives the way a user
// would, beside what they would use instead and beside this machine's
// hand-off limit. Every case runs once per round, in an order that rotates
// each round (the benchmarks' one method, Benchmarks/Scripts/common.sh), and
// it prints one row per case and round in method.py's format (seconds per
// operation as the wall time, the 1-minute load at the round's start);
// Benchmarks/Scripts/primitives.sh runs it and method.py makes the table.
//
// Environment: ROUNDS (default 7), FAST (iterations of a continuation round,
// default 200,000), SLOW (iterations of a thread round trip, default 5,000),
// HANDOFFS (round trips of the C ping-pong, default 5,000), ONLY (a substring:
// run only the cases whose name contains it), IDLE (set: measure instead the CPU
// an idle executor uses over IDLE_SECONDS, default 10, after its last job),
// ACTORS (set: the actor executor cases of ActorCases.swift instead, with HOPS
// hops per round, default 100,000, BATCHES of 10,000 jobs, default 10, and
// JOBS queue steps for the bookkeeping, default 1,000,000), PER_ITEM (set: the
// per-item cases of PerItemCases.swift instead, ITEMS items per round,
// default 100,000), SCHEDSTAT (set: print what the scheduler did to the
// process to standard error at the end, SchedulerCounts.swift),
// CONTINUATION_PAIRS (set: our continuations paired with the standard
// library's instead, ContinuationPairs.swift, OPERATIONS round trips per case
// and round, default 20,000; ONLY keeps the pairs with a side whose name contains it).

import HarnessSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

func setting(_ name: String, _ fallback: Int) -> Int {
    guard let raw = getenv(name), let value = Int(String(cString: raw)), value > 0 else { return fallback }
    return value
}

if getenv("IDLE") != nil {
    let seconds = setting("IDLE_SECONDS", 10)
    let share = try await Task.detached { try await measureIdleExecutor(seconds: seconds) }.value
    let text = String(Int((share * 1_000).rounded())).inserting(".", fromEnd: 3)
    print("| idle `BlockingExecutor(width: 2)` after 10,000 jobs: CPU over \(seconds) s (getrusage) | \(text)% of one core |")
    exit(0)
}

let rounds = setting("ROUNDS", 7)
var cases =
    getenv("ACTORS") != nil
    ? actorCases(hops: setting("HOPS", 100_000), batches: setting("BATCHES", 10), bookkeepingJobs: setting("JOBS", 1_000_000))
    : getenv("PER_ITEM") != nil
    ? perItemCases(items: setting("ITEMS", 100_000))
    : allCases(fast: setting("FAST", 200_000), slow: setting("SLOW", 5_000), handOffs: setting("HANDOFFS", 5_000))
if let only = getenv("ONLY").map({ String(cString: $0) }) { cases = cases.filter { $0.name.contains(only) } }
let selected = cases

if getenv("CONTINUATION_PAIRS") != nil {
    let only = getenv("ONLY").map { String(cString: $0) }
    let pairs = continuationPairs(operations: setting("OPERATIONS", 20_000))
        .filter { pair in only.map { pair.ours.name.contains($0) || pair.peer.name.contains($0) } ?? true }
    try await Task.detached { try await runContinuationPairs(pairs, rounds: rounds) }.value
    exit(0)
}

print("round\tlabel\twall_s\tuser_s\tsys_s\trss_kib\tload1")
try await Task.detached {
    // A warm-up round, not counted.
    for item in selected { _ = try await item.measuredRound(max(1, item.operations / 10)) }
    for round in 1...rounds {
        let load = loadAverage()
        for offset in 0..<selected.count {
            let item = selected[(offset + round - 1) % selected.count]
            let measured = try await item.measuredRound(item.operations)
            let perOperation = Double(measured.elapsed) / Double(item.operations) / 1e9
            print("\(round)\t\(item.name)\t\(perOperation)\t0\t0\t0\t\(load)")
            if let p99 = measured.p99 { print("\(round)\t\(item.name), p99\t\(Double(p99) / 1e9)\t0\t0\t0\t\(load)") }
        }
    }
}.value
if getenv("SCHEDSTAT") != nil { printSchedulerCounts() }

extension String {
    func inserting(_ mark: Character, fromEnd: Int) -> String {
        var text = self
        while text.count <= fromEnd { text.insert("0", at: text.startIndex) }
        text.insert(mark, at: text.index(text.endIndex, offsetBy: -fromEnd))
        return text
    }
}
