/// A report that the main actor or the cooperative thread pool stopped
/// running jobs for longer than the ``StallDetector``'s threshold, with the
/// stacks of the threads that were blocking it.
///
/// The detector reports each stall once through ``ConcurrencyStallHandler``,
/// when it ends (``isOngoing`` is `false`, ``duration`` is its whole length),
/// with the ``threads`` captured while they blocked. A report with
/// ``isOngoing`` `true` and the length so far comes for a stall that has
/// lasted 10 s (a deadlock, seen while it lasts), and for one still lasting
/// when a recording ends or the process exits.
///
/// ```swift
/// StallDetector.start()
/// ConcurrencyStallHandler.bootstrap(.custom { stall in
///     logger.warning("\(stall.kind) for \(stall.duration): \(stall.backtrace.first ?? "?")")
/// })
/// ```
///
/// A stall is also an `Error`, so a test helper or a crash reporter that
/// takes errors can carry it as it is.
public struct ConcurrencyStall: Error, Sendable, Hashable, CustomStringConvertible {
    /// What stalled: an open set, so a later version may add kinds without
    /// breaking your `switch` (give it a `default:`).
    ///
    /// ```swift
    /// switch stall.kind {
    /// case .mainActorBlocked: metrics.increment("stall.main_actor")
    /// case .cooperativePoolBlocked: metrics.increment("stall.pool")
    /// default: metrics.increment("stall")
    /// }
    /// ```
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private let code: UInt8
        private init(_ code: UInt8) { self.code = code }

        /// The main actor did not run a job within the threshold: the main
        /// thread was busy (or blocked) in one job. The blamed thread is the
        /// main thread.
        ///
        /// For example: `#expect(stalls.map(\.kind) == [.mainActorBlocked])`
        public static let mainActorBlocked = Kind(1)
        /// The cooperative pool did not start a job within the threshold:
        /// every pool thread was busy (or blocked). The blamed threads are the
        /// ones running Swift jobs then.
        ///
        /// For example: `if stall.kind == .cooperativePoolBlocked { print(stall.backtrace.joined(separator: "\n")) }`
        public static let cooperativePoolBlocked = Kind(2)

        /// The kind's name, as in `mainActorBlocked`.
        ///
        /// For example: `metrics.increment("stall.\(stall.kind)")`
        public var description: String {
            switch code {
            case 1: "mainActorBlocked"
            case 2: "cooperativePoolBlocked"
            default: "kind \(code)"
            }
        }
    }

    /// One thread that was blocking, and what it was doing.
    ///
    /// For example: `for thread in stall.threads { print("thread \(thread.id):", thread.backtrace.first ?? "?") }`
    public struct BlockedThread: Sendable, Hashable {
        /// The OS thread id (Linux `gettid`), as `top -H` and debuggers show it.
        ///
        /// For example: `print("thread \(thread.id)")`
        public var id: UInt64
        /// Its frames, innermost first, as `function at file:line`, without
        /// the Swift runtime's, the C library's and Dispatch's frames; for a
        /// thread asleep in a system call, first a line naming the call, such
        /// as `blocked in poll (system call poll)`.
        ///
        /// For example: `print(thread.backtrace.joined(separator: "\n"))`
        public var backtrace: [String]

        /// Creates a thread entry (tests build their own to compare against).
        ///
        /// ```swift
        /// let thread = ConcurrencyStall.BlockedThread(id: 42, backtrace: ["compress() at Sources/App/Zip.swift:10"])
        /// ```
        public init(id: UInt64, backtrace: [String]) {
            self.id = id
            self.backtrace = backtrace
        }
    }

    /// What stalled.
    ///
    /// For example: `#expect(stall.kind == .mainActorBlocked)`
    public var kind: Kind
    /// How long no job ran: for an ongoing stall, so far; for an ended one,
    /// from the probe's enqueue to its start (so at most one probe interval
    /// shorter than the block itself).
    ///
    /// For example: `#expect(stall.duration >= .milliseconds(300))`
    public var duration: Duration
    /// `false` for the report made when the stall ended; `true` for one made
    /// while it lasted (after 10 s, or when a recording or the process ended).
    ///
    /// For example: `if !stall.isOngoing { metrics.record("stall_ms", stall.duration) }`
    public var isOngoing: Bool
    /// The threads that were blocking, with their stacks captured while they
    /// blocked. Empty where stacks cannot be taken (see
    /// Documentation/StallDetection.md), or for a stall that ended before the
    /// detector's next look.
    ///
    /// For example: `#expect(stall.threads.count >= 1)`
    public var threads: [BlockedThread]
    /// For ``Kind/cooperativePoolBlocked``: the priority whose jobs did not
    /// start (on Linux each priority has its own threads, so blocking every
    /// `.high` thread stalls `.high` work only). `nil` for the main actor.
    ///
    /// For example: `if stall.priority == .high { logger.error("user-initiated work stalled: \(stall)") }`
    public var priority: TaskPriority? {
        get { priorityValue.map { TaskPriority(rawValue: $0) } }
        set { priorityValue = newValue?.rawValue }
    }
    private var priorityValue: UInt8?  // TaskPriority is not Hashable
    /// ``priority``'s name as the report writes it (`high`, `medium`, `low`,
    /// `background`, else its raw value), so a log or a summary spells it the same way.
    ///
    /// For example: `metrics.increment("stall.pool.\(stall.priorityName ?? "main")")`
    public var priorityName: String? { priority.map(Self.name) }
    /// How much of ``duration`` the blocking threads spent runnable but
    /// waiting for a CPU, because other processes held the cores (Linux
    /// `schedstat`, read while the stall lasted and scaled to its length).
    /// `nil` when not measured: no blocking thread was captured, or not Linux.
    ///
    /// For example: `if let host = stall.hostDelay { metrics.record("stall_host_ms", host) }`
    public var hostDelay: Duration?
    /// Whether the host, not the program, made this stall: at least half of
    /// ``duration`` was ``hostDelay``. Count such a report against the
    /// machine's load, not against your code.
    ///
    /// For example: `guard !stall.isCausedByHost else { return metrics.increment("stall.busy_host") }`
    public var isCausedByHost: Bool {
        guard let hostDelay else { return false }
        return hostDelay * 2 >= duration
    }
    /// For a ``Kind/cooperativePoolBlocked`` stall: how long, in all, the
    /// main actor ran no job during it only because its queue waited for a
    /// pool thread (after an async `main`, Linux drains the main queue on
    /// the pool's threads). Those main-actor stalls are part of this report,
    /// not reports of their own. `nil` when the main actor was not held up.
    ///
    /// For example: `if let held = stall.mainActorDelay { logger.info("the UI waited \(held) for the pool too") }`
    public var mainActorDelay: Duration?
    /// Which stall this report is about: the ongoing and the ended report of
    /// one stall share it.
    package var serial: UInt64 = 0

    /// The frames of the blocking threads, innermost first, one thread after
    /// the other, as `function at file:line`: the first line is usually the
    /// function that blocks.
    ///
    /// For example: `#expect(stall.backtrace.contains { $0.contains("decodeHugeJSON") })`
    public var backtrace: [String] { threads.flatMap(\.backtrace) }

    /// Creates a report. The detector creates these; tests may build their
    /// own to compare against or to test a handler.
    ///
    /// For example: `let stall = ConcurrencyStall(kind: .mainActorBlocked, duration: .milliseconds(400))`
    public init(kind: Kind, duration: Duration, isOngoing: Bool = false, threads: [BlockedThread] = []) {
        self.kind = kind
        self.duration = duration
        self.isOngoing = isOngoing
        self.threads = threads
    }

    /// A few lines a developer can act on: what stalled, for how long, and
    /// the blocking threads' frames.
    ///
    /// ```swift
    /// print(stall)   // "the main actor ran no job for 412 ms (ended); blocked by thread 4242:\n    blockMainActor() at ..."
    /// ```
    public var description: String {
        let what = kind == .mainActorBlocked ? "the main actor ran no job"
            : kind == .cooperativePoolBlocked
                ? "the cooperative pool started no job" + (priorityName.map { " of priority \($0)" } ?? "")
                : "\(kind)"
        var text = "\(what) for \(Self.milliseconds(duration)) ms\(isOngoing ? " so far" : " (ended)")"
        if let hostDelay {
            text += "; the host: \(Self.milliseconds(hostDelay)) ms of the \(Self.milliseconds(duration)) ms waiting for a CPU"
                + (isCausedByHost ? " (other processes held the cores: not this program's stall)" : "")
        }
        if let mainActorDelay {
            text += "; the main actor, whose queue the pool's threads drain, ran no job for \(Self.milliseconds(mainActorDelay)) ms of it"
        }
        if threads.isEmpty {
            text += "; no backtrace (see Documentation/StallDetection.md)."
        }
        for thread in threads {
            text += "\n  blocked by thread \(thread.id):"
            for frame in thread.backtrace.prefix(12) { text += "\n    \(frame)" }
            if thread.backtrace.isEmpty { text += "\n    (no frames of your code)" }
        }
        return text
    }

    private static func name(_ priority: TaskPriority) -> String {
        switch priority {
        case .high: "high"
        case .medium: "medium"
        case .low: "low"
        case .background: "background"
        default: "\(priority.rawValue)"
        }
    }

    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
