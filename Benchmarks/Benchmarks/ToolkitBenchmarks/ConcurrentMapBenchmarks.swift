import Benchmark
import ConcurrencyToolkit

/// `concurrentMap` against the width-limited task group people write by hand,
/// over 10,000 elements with 4 in flight: once with a trivial transform (the
/// overhead per element) and once with ~20 µs of work per element.
func concurrentMapBenchmarks() {
    let elements = Array(0..<10_000)
    let width = 4
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal], maxDuration: .seconds(3), maxIterations: 200)

    for (label, work) in [("trivial transform", 0), ("20 µs transform", 20_000)] {
        let name = "Map 10,000 elements, 4 at a time, \(label)"
        Benchmark("\(name): concurrentMap", configuration: configuration) { _ in
            let results = await elements.concurrentMap(maxConcurrency: width) { spin(work, $0) }
            precondition(results.count == elements.count && results.last == spin(0, elements.last!))
            blackHole(results)
        }
        Benchmark("\(name): hand-written TaskGroup (peer)", configuration: configuration) { _ in
            let results = await handWrittenMap(elements, width: width) { spin(work, $0) }
            precondition(results.count == elements.count && results.last == spin(0, elements.last!))
            blackHole(results)
        }
    }
}

/// The bounded, order-preserving map a careful user writes without the toolkit.
private func handWrittenMap(
    _ input: [Int], width: Int, _ transform: @escaping @Sendable (Int) -> Int
) async -> [Int] {
    await withTaskGroup(of: (Int, Int).self) { group in
        var results = [Int?](repeating: nil, count: input.count)
        var next = 0
        while next < min(width, input.count) {
            let index = next
            group.addTask { (index, transform(input[index])) }
            next += 1
        }
        while let (index, value) = await group.next() {
            results[index] = value
            if next < input.count {
                let index = next
                group.addTask { (index, transform(input[index])) }
                next += 1
            }
        }
        return results.map { $0! }
    }
}

/// Busy work for about `nanoseconds` (wall clock), then a cheap function of
/// `value`, so the result depends on the element and cannot be skipped.
@Sendable
private func spin(_ nanoseconds: Int, _ value: Int) -> Int {
    if nanoseconds > 0 {
        let end = ContinuousClock.now.advanced(by: .nanoseconds(nanoseconds))
        while ContinuousClock.now < end {}
    }
    return value &* 2 &+ 1
}
