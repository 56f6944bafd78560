import ConcurrencyToolkit

/// What ``exploreSchedules(_:seed:_:)`` found: how many schedules ran and
/// the ones that failed, each with the seed that replays it.
///
/// ```swift
/// let exploration = await exploreSchedules(300) { try await withdrawTwiceAtOnce() }
/// for failure in exploration.failures.prefix(3) { print(failure) }   // each names its replay line
/// #expect(exploration.failures.isEmpty)
/// ```
public struct ScheduleExploration: Sendable, CustomStringConvertible {
    /// Schedules run: fewer than asked when cancelled or at a failure limit.
    ///
    /// For example: `#expect(exploration.schedulesRun == 300)`
    public var schedulesRun: Int
    /// The failing schedules, in the order they ran.
    ///
    /// For example: `let seeds = exploration.failures.map(\.seed)`
    public var failures: [ScheduleFailure]
    /// The seed the exploration started from; pass it as `seed:` to run the same schedules again.
    ///
    /// For example: `let again = await exploreSchedules(300, seed: exploration.seed) { try await body() }`
    public var seed: UInt64

    /// One line, then the first few failures.
    ///
    /// For example: `print(exploration)   // "2 of 300 schedules failed (exploration seed 0x…)" and each failure`
    public var description: String {
        let head = "\(failures.count) of \(schedulesRun) schedules failed (exploration seed \(seedLiteral(seed)))"
        return ([head] + failures.prefix(3).map { "- \($0)" }).joined(separator: "\n")
    }
}

/// One failing schedule: its seed, what went wrong, and the line that replays it.
///
/// ```swift
/// if let failure = exploration.failures.first {
///     print(failure.replayLine)            // try await replaySchedule(seed: 0x5F3A…) { … }
///     #expect(failure.isDeadlock == false)
/// }
/// ```
public struct ScheduleFailure: Error, Sendable, CustomStringConvertible {
    /// The schedule's seed, for ``replaySchedule(seed:_:)``.
    ///
    /// For example: `try await replaySchedule(seed: failure.seed) { try await body() }`
    public var seed: UInt64
    /// How the schedule picked its jobs; a replay must use the same one.
    ///
    /// For example: `try await replaySchedule(seed: failure.seed, strategy: failure.strategy) { try await body() }`
    public var strategy: ScheduleStrategy
    /// What the body threw; or a ``ScheduleDeadlock``, a ``ScheduleTooLong``,
    /// or the first `ContinuationMisuse` of a body that returned normally.
    ///
    /// For example: `if let misuse = failure.error as? ContinuationMisuse { print(misuse.kind) }`
    public var error: any Error
    /// Whether no job could run while the body had not finished.
    ///
    /// For example: `#expect(exploration.failures.allSatisfy { $0.isDeadlock })`
    public var isDeadlock: Bool
    /// The misuse of continuations created in this schedule, in order; any makes it fail.
    ///
    /// For example: `#expect(failure.misuses.map(\.kind) == [.resumedMoreThanOnce])`
    public var misuses: [ContinuationMisuse]
    /// Jobs the schedule ran before it failed.
    ///
    /// For example: `print("failed after \(failure.steps) steps")`
    public var steps: Int

    /// The call that runs this schedule again, to paste into a test.
    ///
    /// For example: `print(failure.replayLine)   // try await replaySchedule(seed: 0x5F3A09C2D1E4B877) { … }`
    public var replayLine: String {
        let strategyArgument = strategy == .default ? "" : ", strategy: \(strategy)"
        return "try await replaySchedule(seed: \(seedLiteral(seed))\(strategyArgument)) { … }"
    }

    /// `schedule seed 0x… failed after N steps: ERROR`, the replay line, then its misuse.
    ///
    /// For example: `Issue.record(failure)   // the text is this description`
    public var description: String {
        var text = "schedule seed \(seedLiteral(seed)) failed after \(steps) steps: \(error)\n  replay: \(replayLine)"
        for misuse in misuses where (error as? ContinuationMisuse).map({ "\($0)" != "\(misuse)" }) ?? true {
            text += "\n  misuse in this schedule (seed \(seedLiteral(seed))): \(misuse)"
        }
        return text
    }
}

/// The error of a schedule in which no job could run, the body had not
/// finished, and nothing arrived from outside for the grace period.
///
/// ```swift
/// if let deadlock = failure.error as? ScheduleDeadlock {
///     deadlock.pending.forEach { print($0) }   // where each stuck continuation was created
/// }
/// ```
///
/// The schedule's tasks are left suspended for good; see <doc:ExploringSchedulesInTests>.
public struct ScheduleDeadlock: Error, Sendable, CustomStringConvertible {
    /// Jobs run before the schedule stopped.
    ///
    /// For example: `print(deadlock.steps)`
    public var steps: Int
    /// The safe continuations created during this schedule and still waiting,
    /// listed only while `PendingContinuations.isTracking` is on.
    ///
    /// For example: `let sites = deadlock.pending.map(\.site)`
    public var pending: [PendingContinuation]
    /// How long the driver waited for work from outside the schedule.
    ///
    /// For example: `#expect(deadlock.grace == .seconds(2))`
    public var grace: Duration

    /// What was waiting.
    ///
    /// For example: `print(deadlock)   // "deadlock after 7 steps: … waiting: App/Cache.swift:12 in load(), …"`
    public var description: String {
        let waiting = pending.isEmpty ? "no safe continuation pending" : "waiting: " + pending.map(\.description).joined(separator: "; ")
        return "deadlock after \(steps) steps: no job could run for \(grace) and the body had not returned; \(waiting)"
    }
}

/// The error of a schedule that ran more jobs than its limit without the body returning.
///
/// For example: `#expect(!(failure.error is ScheduleTooLong))`
public struct ScheduleTooLong: Error, Sendable, CustomStringConvertible {
    /// The limit that was reached.
    ///
    /// For example: `print(tooLong.steps)   // 100000`
    public var steps: Int

    /// What happened, and what it usually means.
    ///
    /// For example: `print(tooLong)`
    public var description: String {
        "the schedule ran \(steps) jobs without the body returning (a livelock, or a loop that never ends)"
    }
}

func seedLiteral(_ seed: UInt64) -> String {
    let digits = String(seed, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: 16 - digits.count) + digits
}
