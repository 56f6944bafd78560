/// How an exploration picks the next job when several can run.
///
/// ```swift
/// let exploration = await exploreSchedules(300, strategy: .pct(depth: 2)) {
///     try await transferTwiceAtOnce()
/// }
/// ```
///
/// ``pct(depth:steps:)``, the ``default``, gives a bound on finding a bug that
/// holds whatever the program; ``random`` gives none. See
/// <doc:ExploringSchedulesInTests>.
public struct ScheduleStrategy: Sendable, Hashable, CustomStringConvertible {
    enum Kind: Hashable {
        case random
        case pct(depth: Int, steps: Int)
    }

    let kind: Kind

    /// Any runnable job, with equal chance, at every step.
    ///
    /// For example: `let exploration = await exploreSchedules(200, strategy: .random) { try await body() }`
    public static let random = ScheduleStrategy(kind: .random)

    /// Probabilistic concurrency testing: each task gets a random priority and
    /// the highest runnable runs, but at `depth - 1` random steps among the
    /// first `steps` the running task drops below all others. `depth` and
    /// `steps` below 1 are taken as 1.
    ///
    /// For example: `let exploration = await exploreSchedules(500, strategy: .pct(depth: 3, steps: 40)) { try await body() }`
    public static func pct(depth: Int = 3, steps: Int = 50) -> ScheduleStrategy {
        ScheduleStrategy(kind: .pct(depth: max(1, depth), steps: max(1, steps)))
    }

    /// The strategy ``exploreSchedules(_:seed:_:)`` and ``replaySchedule(seed:_:)`` use.
    ///
    /// For example: `let exploration = await exploreSchedules(100, strategy: .default) { try await body() }`
    public static var `default`: ScheduleStrategy { .pct(depth: 3, steps: 50) }

    /// How a replay line spells it: `.random`, `.pct(depth: 3, steps: 50)`.
    ///
    /// For example: `print("strategy: \(ScheduleStrategy.pct())")   // strategy: .pct(depth: 3, steps: 50)`
    public var description: String {
        switch kind {
        case .random: ".random"
        case .pct(let depth, let steps): ".pct(depth: \(depth), steps: \(steps))"
        }
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): the same seed gives the same numbers
/// on every platform and release, which a replay line depends on.
struct ScheduleRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0); not `Int.random(in:using:)`,
    /// whose use of the generator may change between releases.
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// The seed of schedule `index` of an exploration started with `base`; it replays alone.
    static func scheduleSeed(base: UInt64, index: Int) -> UInt64 {
        var generator = ScheduleRandom(seed: base &+ UInt64(truncatingIfNeeded: index) &* 0x2545_F491_4F6C_DD1D)
        return generator.next()
    }
}
