/// Where ``ConcurrencyStall`` reports go: the same routing as
/// `ContinuationMisuseHandler`'s.
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
    let report: @Sendable (ConcurrencyStall) -> Void

    init(report: @escaping @Sendable (ConcurrencyStall) -> Void) {
        self.report = report
    }

    /// A handler that calls `report` for every stall report (ongoing and ended).
    ///
    /// ```swift
    /// let handler = ConcurrencyStallHandler.custom { stall in
    ///     if !stall.isOngoing { metrics.record("stall_ms", stall.duration) }
    /// }
    /// ```
    public static func custom(_ report: @escaping @Sendable (ConcurrencyStall) -> Void) -> Self {
        Self(report: report)
    }

    /// The default: writes one block starting with `CONCURRENCY STALL:` to
    /// standard error (the stall and the blocking threads' frames) and lets
    /// the program go on.
    ///
    /// ```swift
    /// ConcurrencyStallHandler.bootstrap(.logToStandardError)
    /// ```
    ///
    /// It is rate-limited like the misuse reports: the first report of a
    /// kind blamed on a function is written in full; repeats are counted and
    /// written as one summary line at most every 10 seconds (and at exit).
    /// A ``custom(_:)`` handler and the testing helpers receive every report.
    public static let logToStandardError = logging(to: standardErrorLimiter)

    /// Writes through `limiter`, keyed by the kind, the phase and the first frame.
    static func logging(to limiter: ReportRateLimiter) -> Self {
        Self { stall in
            let blamed = stall.backtrace.first ?? "no backtrace"
            limiter.report(
                key: "\(stall.kind) \(stall.isOngoing ? "ongoing" : "ended") in \(blamed)",
                line: "CONCURRENCY STALL: \(stall)\n")
        }
    }

    static let standardErrorLimiter = ReportRateLimiter(summaryPrefix: "CONCURRENCY STALL: ")

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
        processWide.bootstrap(handler, site: "\(fileID):\(line)", scopedAlternative: "withConcurrencyStallHandler")
    }

    /// Delivers `stall` to this handler.
    ///
    /// ```swift
    /// ConcurrencyStallHandler.logToStandardError.report(ConcurrencyStall(kind: .mainActorBlocked, duration: .seconds(1)))
    /// ```
    public func report(_ stall: ConcurrencyStall) {
        report(stall)
    }

    // MARK: - Routing

    static let processWide = ProcessWideHandler(Self.logToStandardError, name: "ConcurrencyStallHandler")

    struct Scope {
        let handler: ConcurrencyStallHandler
        /// Reports shorter than this are not delivered to this scope.
        let minimumDuration: Duration
        /// The trace recording the scope runs in, if any: it gets the stall events.
        let recorder: TraceRecorder?
    }

    /// The scopes active now, by id, in the order they began.
    static let scopes = Lock<(next: UInt64, active: [(id: UInt64, scope: Scope)])>((0, []))

    /// Runs `operation` with `handler` in a scope: package API for the testing module.
    package static func withScope<Result>(
        _ handler: ConcurrencyStallHandler, minimumDuration: Duration = .zero,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        let id = scopes.withLock { scopes in
            scopes.next += 1
            scopes.active.append((
                scopes.next,
                Scope(handler: handler, minimumDuration: minimumDuration, recorder: Instrumentation.currentRecorder)))
            return scopes.next
        }
        defer { scopes.withLock { $0.active.removeAll { $0.id == id } } }
        return try await operation()
    }

    /// Sends `stall` to the active scopes that want it, or, when no scope is
    /// active, to the process-wide handler if `processThreshold` is given and
    /// reached. As a trace event, it goes into every active recording when the
    /// process started the detector, else into the recordings the scopes run in.
    static func deliver(_ stall: ConcurrencyStall, processThreshold: Duration?) {
        let active = scopes.withLock { $0.active.map(\.scope) }
        if processThreshold != nil {
            Instrumentation.emitToEveryRecording(.stalled(stall))
        } else {
            var seen: Set<ObjectIdentifier> = []
            for case let recorder? in active.map(\.recorder) where seen.insert(ObjectIdentifier(recorder)).inserted {
                recorder.emit(.stalled(stall))
            }
        }
        if active.isEmpty {
            guard let processThreshold, stall.duration >= processThreshold else { return }
            processWide.current.report(stall)
            return
        }
        for scope in active where stall.duration >= scope.minimumDuration {
            scope.handler.report(stall)
        }
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
