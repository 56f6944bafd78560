// A plain release program that times the toolkit's primitives the way a user
// would, beside what they would use instead and beside this machine's
// hand-off limit. Every case runs once per round, in an order that rotates
// each round, and the table gives per-operation medians with min and max
// over the rounds: no best-of-N. Run it through Benchmarks/Scripts/primitives.sh.
//
// Environment: ROUNDS (default 7), FAST (iterations of a continuation round,
// default 200,000), SLOW (iterations of a thread round trip, default 5,000),
// HANDOFFS (round trips of the C ping-pong, default 5,000), ONLY (a substring:
// run only the cases whose name contains it), IDLE (set: measure instead the CPU
// an idle executor uses over IDLE_SECONDS, default 10, after its last job).

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
var cases = allCases(fast: setting("FAST", 200_000), slow: setting("SLOW", 5_000), handOffs: setting("HANDOFFS", 5_000))
if let only = getenv("ONLY").map({ String(cString: $0) }) { cases = cases.filter { $0.name.contains(only) } }
let selected = cases

let results: [[Double]] = try await Task.detached {
    var perOperation = Array(repeating: [Double](), count: selected.count)
    // A warm-up round, not counted.
    for item in selected { _ = try await item.round(max(1, item.operations / 10)) }
    for round in 0..<rounds {
        for offset in 0..<selected.count {
            let index = (offset + round) % selected.count
            let item = selected[index]
            let elapsed = try await item.round(item.operations)
            perOperation[index].append(Double(elapsed) / Double(item.operations))
        }
    }
    return perOperation
}.value

func format(_ nanoseconds: Double) -> String {
    nanoseconds >= 1_000
        ? String(Int((nanoseconds / 100).rounded())).inserting(".", fromEnd: 1) + " µs"
        : String(Int((nanoseconds * 10).rounded())).inserting(".", fromEnd: 1) + " ns"
}

extension String {
    func inserting(_ mark: Character, fromEnd: Int) -> String {
        var text = self
        while text.count <= fromEnd { text.insert("0", at: text.startIndex) }
        text.insert(mark, at: text.index(text.endIndex, offsetBy: -fromEnd))
        return text
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

let medians = results.map(median)
let parkingIndex = selected.firstIndex { $0.name.hasPrefix("two threads") }
let spinningIndex = selected.firstIndex { $0.name.hasPrefix("the same, spinning") }
let threadCases = Set(selected.indices.filter { selected[$0].name.contains("back to back") })

print("| operation | median | min | max | × parking limit | × spinning limit |")
print("|---|---|---|---|---|---|")
for (index, item) in selected.enumerated() {
    let values = results[index]
    var line = "| \(item.name) | \(format(medians[index])) | \(format(values.min()!)) | \(format(values.max()!)) |"
    let isHandOff = threadCases.contains(index) || index == parkingIndex || index == spinningIndex
    for limit in [parkingIndex, spinningIndex] {
        if isHandOff, let limit {
            line += " \(String(format: medians[index] / medians[limit])) |"
        } else {
            line += " |"
        }
    }
    print(line)
}
print("")
print("\(rounds) interleaved rounds; per-operation medians over the rounds, min and max of the rounds.")

extension String {
    init(format ratio: Double) {
        let hundredths = Int((ratio * 100).rounded())
        self = String(hundredths).inserting(".", fromEnd: 2) + "x"
    }
}
