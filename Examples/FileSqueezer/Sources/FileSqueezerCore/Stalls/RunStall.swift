import ConcurrencyToolkit

/// One stall the toolkit's `StallDetector` saw during a run: what stalled,
/// for how long, and the function that was blocking. `--json` lists them
/// in ``RunReport/stalls``; the text summary counts them.
///
/// ```swift
/// for stall in report.stalls ?? [] {
///     print(stall.kind, stall.milliseconds, stall.blockedIn ?? "no backtrace")
/// }
/// // mainActorBlocked 1410.2 compressWholeFile(_:_:with:channels:isCancelled:) at Examples/...
/// ```
struct RunStall: Sendable, Codable, Equatable {
    /// `mainActorBlocked` or `cooperativePoolBlocked`: the toolkit's
    /// `ConcurrencyStall.Kind` names.
    var kind: String
    /// For a pool stall, the priority whose jobs did not start (`high`,
    /// `medium`, `low`); nil for the main actor.
    var priority: String?
    /// How long no job ran: the whole stall, or, if it still lasted when the
    /// run ended (``ongoing``), as much of it as the detector had seen.
    var milliseconds: Double
    /// The stall had not ended when the detector was stopped.
    var ongoing: Bool
    /// The innermost frame, in the app's own code, of the thread that was
    /// blocking: the function that made the blocking call. Nil when no stack
    /// was taken (a stall that began and ended between two of the
    /// detector's looks, or a platform without backtraces).
    var blockedIn: String?
    /// The blocking thread's frames, innermost first (the C library's and
    /// zlib's included: they say how it blocked), as the detector reported them.
    var backtrace: [String]

    /// A stall report turned into an entry of the run's report.
    ///
    /// ```swift
    /// let entry = RunStall(ConcurrencyStall(kind: .mainActorBlocked, duration: .milliseconds(400)))
    /// // entry.kind == "mainActorBlocked", entry.milliseconds == 400
    /// ```
    init(_ stall: ConcurrencyStall) {
        kind = "\(stall.kind)"
        priority = stall.priorityName
        milliseconds = stall.duration.seconds * 1000
        ongoing = stall.isOngoing
        // Only the first thread: for a pool stall every pool thread is
        // blocking, and in File Squeezer they all block the same way.
        backtrace = stall.threads.first?.backtrace ?? []
        blockedIn = Self.ownFunction(in: backtrace)
    }

    /// Whether this is about the main actor (as opposed to the pool).
    var isMainActor: Bool { kind == "\(ConcurrencyStall.Kind.mainActorBlocked)" }

    /// The first frame of the app's own code (`FileSqueezerCore/`), else the
    /// first with a package-relative location (`at Sources/...`; libc and
    /// zlib have none, a sanitizer's runtime an absolute one), else the
    /// first frame.
    static func ownFunction(in backtrace: [String]) -> String? {
        backtrace.first { $0.contains(" at ") && $0.contains("FileSqueezerCore/") }
            ?? backtrace.first { $0.contains(" at ") && !$0.contains(" at /") } ?? backtrace.first
    }
}
