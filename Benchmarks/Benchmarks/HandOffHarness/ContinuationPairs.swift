import ConcurrencyToolkit
import HarnessSupport

// SafeContinuation against the standard library (issue 40): each of our
// continuation shapes paired with its peer, both run in every round, the
// order alternating round by round (ours first in odd rounds), so a ratio
// is taken between two runs a few milliseconds apart. Selected with
// CONTINUATION_PAIRS=1 (Benchmarks/Scripts/continuation-cost.sh, which
// reports each pair's per-round ratios: median, p99, min and max); every
// row is per round trip. The "not inlined" pairs put both sides behind an
// `@inline(never)` function: the peer's small closure is otherwise inlined
// into the timing loop, which drops two of its executor hops (Performance.md,
// "`onCancel:` executor hops").

/// One of ours and its peer, timed in the same rounds.
struct ContinuationPair: Sendable {
    let ours: Case
    let peer: Case
}

@inline(never) func safePlain(_ i: Int) async throws -> Int {
    try await withSafeThrowingContinuation { $0.resume(returning: i) }
}

@inline(never) func checkedPlain(_ i: Int) async throws -> Int {
    try await withCheckedThrowingContinuation { $0.resume(returning: i) }
}

/// The pairs, in the order of the table.
func continuationPairs(operations: Int) -> [ContinuationPair] {
    [
        ContinuationPair(
            ours: .timed("`withSafeThrowingContinuation`", operations) { i in
                try await withSafeThrowingContinuation { $0.resume(returning: i) }
            },
            peer: .timed("`withCheckedThrowingContinuation`", operations) { i in
                try await withCheckedThrowingContinuation { $0.resume(returning: i) }
            }),
        ContinuationPair(
            ours: .timed("`withSafeThrowingContinuation`, not inlined", operations) { try await safePlain($0) },
            peer: .timed("`withCheckedThrowingContinuation`, not inlined", operations) { try await checkedPlain($0) }),
        ContinuationPair(
            ours: .timed("`withSafeThrowingContinuation(onCancel:)`, not inlined", operations) {
                try await safeWithOnCancel($0)
            },
            peer: .timed("checked inside `withTaskCancellationHandler`, not inlined", operations) {
                try await checkedWithHandler($0)
            }),
        ContinuationPair(
            ours: .timed("`withSafeThrowingContinuation(onCancel:)`", operations) { i in
                try await withSafeThrowingContinuation(onCancel: {}) { $0.resume(returning: i) }
            },
            peer: .timed("checked inside `withTaskCancellationHandler`", operations) { i in
                try await withTaskCancellationHandler {
                    try await withCheckedThrowingContinuation { $0.resume(returning: i) }
                } onCancel: {
                }
            }),
    ]
}

/// Runs `rounds` rounds of every pair (after one untimed warm-up round) and
/// prints method.py's rows, seconds per round trip.
func runContinuationPairs(_ pairs: [ContinuationPair], rounds: Int) async throws {
    print("round\tlabel\twall_s\tuser_s\tsys_s\trss_kib\tload1")
    for pair in pairs {
        for side in [pair.ours, pair.peer] { _ = try await side.measuredRound(max(1, side.operations / 10)) }
    }
    for round in 1...rounds {
        let load = loadAverage()
        for pair in pairs {
            for side in round % 2 == 1 ? [pair.ours, pair.peer] : [pair.peer, pair.ours] {
                let measured = try await side.measuredRound(side.operations)
                let perOperation = Double(measured.elapsed) / Double(side.operations) / 1e9
                print("\(round)\t\(side.name)\t\(perOperation)\t0\t0\t0\t\(load)")
            }
        }
    }
}
