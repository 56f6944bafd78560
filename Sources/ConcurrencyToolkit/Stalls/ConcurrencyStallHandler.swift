/// Where ``ConcurrencyStall`` reports go: the reporting floor's routing
/// (Reports/ReportRouter.swift), as for `ContinuationMisuseHandler`.
///
/// One handler is in effect for the whole process (by default
/// ``logToStandardError``); ``withConcurrencyStallHandler(_:isolation:operation:)``
/// overrides it while an operation runs.
///
/// ```swift
/// @main struct Server {
///     static func main() async throws {
///         ConcurrencyStallHandler.bootstrap(.custom { stall in
///             logger.warning("\(stall)")
///         })
///         StallDetector.start()
///         try await runServer()
///     }
/// }
/// ```
///
/// The handler runs on the detector's watchdog thread, never while the
/// toolkit holds a lock; while it runs, the detector does not probe. Keep it
/// short and thread-safe.
public struct ConcurrencyStallHandler: Sendable {
    /// The floor's handler this one wraps (Reports/ReportHandler.swift).
    let base: ReportHandler<ConcurrencyStall>

    init(base: ReportHandler<ConcurrencyStall>) {
        self.base = base
    }

    /// A handler that calls `report` for every stall report (ongoing and ended).
    ///
    /// ```swift
    /// let handler = ConcurrencyStallHandler.custom { stall in
    ///     if !stall.isOngoing { metrics.record("stall_ms", stall.duration) }
    /// }
    /// ```
    public static func custom(_ report: @escaping @Sendable (ConcurrencyStall) -> Void) -> Self {
        Self(base: .custom(report))
    }

    /// The default: writes one block starting with `CONCURRENCY STALL:` to
    /// standard error (the stall and the blocking threads' frames) and lets
    /// the program go on.
    ///
    /// For example: `ConcurrencyStallHandler.bootstrap(.logToStandardError)`
    ///
    /// It is rate-limited like the misuse reports: the first report of a
    /// kind blamed on a function is written in full; repeats are counted and
    /// written as one summary line at most every 10 seconds (and at exit).
    /// A ``custom(_:)`` handler and the testing helpers receive every report.
    public static let logToStandardError = Self(base: ConcurrencyStall.reporting.logToStandardError)

    /// Writes through `limiter`, keyed by the kind, the phase and the first frame.
    static func logging(to limiter: ReportRateLimitStorage) -> Self {
        Self(base: .writing(to: limiter, banner: ConcurrencyStall.reporting.banner))
    }

    /// Installs the process-wide handler. Call it once, at start-up; a second
    /// call is a programmer error and stops the process with a message naming
    /// both call sites.
    ///
    /// ```swift
    /// ConcurrencyStallHandler.bootstrap(.custom { stall in crashReporter.record(nonFatal: "\(stall)") })
    /// ```
    public static func bootstrap(
        _ handler: ConcurrencyStallHandler, fileID: String = #fileID, line: Int = #line
    ) {
        ConcurrencyStall.reporting.bootstrap(handler.base, fileID: fileID, line: line)
    }

    /// Delivers `stall` to this handler.
    ///
    /// ```swift
    /// ConcurrencyStallHandler.logToStandardError.report(ConcurrencyStall(kind: .mainActorBlocked, duration: .seconds(1)))
    /// ```
    public func report(_ stall: ConcurrencyStall) {
        base.report(stall)
    }

    // MARK: - Routing (the floor's, Reports/ReportRouter.swift)

    /// Runs `operation` with `handler` in a scope that receives the reports
    /// of at least `minimumDuration`: package API for the testing module.
    package static func withScope<Result>(
        _ handler: ConcurrencyStallHandler, minimumDuration: Duration = .zero,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        var accepts: (@Sendable (ConcurrencyStall) -> Bool)?
        if minimumDuration != .zero {
            accepts = { stall in stall.duration >= minimumDuration }
        }
        return try await ConcurrencyStall.reporting.withScope(
            handler.base, accepting: accepts, isolation: isolation, operation: operation)
    }

    /// Sends `stall` to the active scopes that want it, or, when no scope is
    /// active, to the process-wide handler if `processThreshold` is given and
    /// reached. As a trace event, it goes into every active recording when the
    /// process started the detector, else into the recordings the scopes run in.
    static func deliver(_ stall: ConcurrencyStall, processThreshold: Duration?) {
        ConcurrencyStall.reporting.deliver(
            stall, toProcessWide: processThreshold.map { stall.duration >= $0 } ?? false,
            intoEveryRecording: processThreshold != nil)
    }
}

/// The registration of stalls on the reporting floor: routed to the scopes
/// active when delivered, traced as `.stalled`, written to standard error
/// once per kind, phase and blamed function.
extension ConcurrencyStall: ConcurrencyReport {
    package static let reporting = ReportRouter<ConcurrencyStall>(
        handlerName: "ConcurrencyStallHandler", banner: "CONCURRENCY STALL",
        scopedAlternative: "withConcurrencyStallHandler", scoping: .whileActive,
        tracing: .events { .stalled($0) })

    package var rateLimitKey: String {
        // The caller, not the call: "blocked in poll" would key every poll alike.
        "\(kind) \(isOngoing ? "ongoing" : "ended") in \(backtrace.first { !$0.hasPrefix("blocked in ") } ?? backtrace.first ?? "no backtrace")"
    }
}

/// Runs `operation` with `handler` receiving every ``ConcurrencyStall``
/// reported while it runs, instead of the process-wide handler.
///
/// ```swift
/// try await withConcurrencyStallHandler(.custom { stall in
///     metrics.increment("stall.during_import")
/// }) {
///     try await importLibrary()
/// }
/// ```
///
/// A stall belongs to the process, not to a task: the scope receives the
/// stalls reported *while it is active*, whoever caused them (so with tests
/// running in parallel, a stall caused by another test shows up too). When
/// several scopes are active, each receives them. The scope does not start
/// the detector: call ``StallDetector/start(threshold:probeInterval:)``
/// (the testing module's `withConcurrencyStallsRecorded(threshold:)` does both).
public func withConcurrencyStallHandler<Result>(
    _ handler: ConcurrencyStallHandler,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> Result
) async rethrows -> Result {
    try await ConcurrencyStallHandler.withScope(handler, isolation: isolation, operation: operation)
}
