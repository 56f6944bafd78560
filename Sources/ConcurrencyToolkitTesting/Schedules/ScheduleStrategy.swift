/// How an exploration picks the next job when several can run: the order
/// that one seed stands for.
///
/// ```swift
/// let exploration = await exploreSchedules(300, strategy: .pct(depth: 2)) {
///     try await transferTwiceAtOnce()
/// }
/// ```
///
/// - ``random``: at every step, any runnable job with equal chance. Finds
///   bugs that need many small switches between tasks.
/// - ``pct(depth:steps:)``: probabilistic concurrency testing (Burckhardt et
///   al., ASPLOS 2010; shuttle's and Fray's PCT). Each task gets a random
///   priority and the highest runnable one runs, except at `depth - 1`
///   random steps where the running task drops below all others. A bug that
///   needs `d` ordering constraints is found in one schedule with
///   probability at least 1 / (tasks × steps^(d-1)), whatever the program.
///
/// ``default`` is `.pct(depth: 3, steps: 50)`. Measured on 1,000 schedules
/// each (Documentation/MakingRacesReproducible.md, "Strategies"): on the
/// guide's three bugs, which need one task to slip in between two steps of
/// another, random fails 75-94% of schedules and PCT 40-53%: both find them
/// within a few schedules. On a bug where one of three tasks must run all ten
/// of its steps before another starts, random failed 0 of 1,000 and PCT 147.
/// PCT's guarantee holds whatever the program; random's does not.
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

    /// Priority-based schedules with `depth - 1` priority changes placed
    /// among the first `steps` steps (a schedule longer than `steps` has no
    /// change after it).
    ///
    /// ```swift
    /// let exploration = await exploreSchedules(500, strategy: .pct(depth: 3, steps: 40)) { try await body() }
    /// ```
    ///
    /// `depth` below 1 is taken as 1 (no change: one priority order per seed);
    /// `steps` below 1 as 1.
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

/// SplitMix64 (Steele, Lea, Flood 2014): one 64-bit state, every seed is a
/// good start, and the same seed gives the same numbers on every platform,
/// which a replay line depends on. The standard library's generator is
/// neither seedable nor stable across releases.
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

    /// A number in `0..<bound` (`bound` > 0). Spelled out rather than
    /// `Int.random(in:using:)`, whose use of the generator is the standard
    /// library's to change; the bias of a modulo over 2^64 is negligible here.
    mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    /// The seed of schedule `index` of an exploration started with `base`:
    /// schedules are independent, so one replays without the others.
    static func scheduleSeed(base: UInt64, index: Int) -> UInt64 {
        var generator = ScheduleRandom(seed: base &+ UInt64(truncatingIfNeeded: index) &* 0x2545_F491_4F6C_DD1D)
        return generator.next()
    }
}
