/// Where ``ActorContention`` reports go: one handler for the whole process
/// (by default ``logToStandardError``), overridden while an operation runs by
/// ``withActorContentionHandler(_:isolation:operation:)``; with a recording
/// active, each report is also a trace event.
///
/// ```swift
/// @main struct Server {
///     static func main() async throws {
///         ActorContentionHandler.bootstrap(.custom { contention in
///             logger.warning("\(contention)")
///         })
///         ActorContentionDetector.start()
///         try await runServer()
///     }
/// }
/// ```
///
/// The handler runs on the detector's watcher thread, never while the
/// toolkit holds a lock; while it runs, no actor is looked at. Keep it short
/// and thread-safe.
public struct ActorContentionHandler: Sendable {
    let base: ReportHandler<ActorContention>

    /// A handler that calls `report` for every contention episode.
    ///
    /// ```swift
    /// let handler = ActorContentionHandler.custom { contention in
    ///     metrics.record("actor_wait", contention.longestWait, tags: ["actor": contention.label])
    /// }
    /// ```
    public static func custom(_ report: @escaping @Sendable (ActorContention) -> Void) -> Self {
        Self(base: .custom(report))
    }

    /// The default: writes one block starting with `ACTOR CONTENTION:` to
    /// standard error (the episode and the holder's frames) and lets the
    /// program go on.
    ///
    /// For example: `ActorContentionHandler.bootstrap(.logToStandardError)`
    ///
    /// Rate-limited like the other reports: the first episode of an actor
    /// held by a function is written in full; repeats are counted and
    /// written as one summary line at most every 10 seconds (and at exit).
    public static let logToStandardError = Self(base: ActorContention.reporting.logToStandardError)

    /// Installs the process-wide handler. Call it once, at start-up; a second
    /// call is a programmer error and stops the process with a message naming
    /// both call sites.
    ///
    /// ```swift
    /// ActorContentionHandler.bootstrap(.custom { contention in crashReporter.record(nonFatal: "\(contention)") })
    /// ```
    public static func bootstrap(_ handler: Self, fileID: String = #fileID, line: Int = #line) {
        ActorContention.reporting.bootstrap(handler.base, fileID: fileID, line: line)
    }

    /// Delivers `contention` to this handler.
    ///
    /// ```swift
    /// ActorContentionHandler.logToStandardError.report(ActorContention(label: "Cache", longestWait: .seconds(1), maxQueueDepth: 4))
    /// ```
    public func report(_ contention: ActorContention) {
        base.report(contention)
    }

    /// Sends `contention` to the scopes active now, or, with none active, to
    /// the process-wide handler if `processThreshold` is given and reached.
    /// As a trace event it goes into every recording when the process started
    /// the detector, else into the recordings the scopes run in.
    static func deliver(_ contention: ActorContention, processThreshold: Duration?) {
        ActorContention.reporting.deliver(
            contention, toProcessWide: processThreshold.map { contention.longestWait >= $0 } ?? false,
            intoEveryRecording: processThreshold != nil)
    }
}

/// The registration of actor contention on the reporting floor: routed to
/// the scopes active when delivered, traced as `.actorContended`, written to
/// standard error once per actor, holding function and phase (ongoing, ended).
extension ActorContention: ConcurrencyReport {
    package static let reporting = ReportRouter<ActorContention>(
        handlerName: "ActorContentionHandler", banner: "ACTOR CONTENTION",
        scopedAlternative: "withActorContentionHandler", scoping: .whileActive,
        tracing: .events { .actorContended($0) })

    /// The actor and the holder's *function*, not its line: a busy loop
    /// caught at lines 47, 48 and 78 of one function is one culprit, written
    /// once. The actor alone when no holder was captured; ongoing reports
    /// apart from ended ones, as a stall's phases are.
    package var rateLimitKey: String {
        var key = "actor \(label)"
        if let frame = holderBacktrace.first {
            let function = frame.firstRange(of: " at ").map { frame[..<$0.lowerBound] } ?? frame[...]
            key += " held by \(function)"
        }
        return isOngoing ? key + " (ongoing)" : key
    }
}

/// Runs `operation` with `handler` receiving every ``ActorContention``
/// reported while it runs, instead of the process-wide handler.
///
/// ```swift
/// let count = try await withActorContentionHandler(.custom { contention in
///     logger.notice("during import: \(contention)")
/// }) {
///     try await importer.importLibrary(at: fixtures)
/// }
/// ```
///
/// Contention belongs to the process, not to a task: the scope receives the
/// episodes reported *while it is active*, whichever actor they concern.
/// The scope does not start the detector: call
/// ``ActorContentionDetector/start(threshold:)`` (the testing module's
/// `withActorContentionRecorded(threshold:_:)` does both).
public func withActorContentionHandler<Result>(
    _ handler: ActorContentionHandler,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> Result
) async rethrows -> Result {
    try await ActorContention.reporting.withScope(handler.base, isolation: isolation, operation: operation)
}
