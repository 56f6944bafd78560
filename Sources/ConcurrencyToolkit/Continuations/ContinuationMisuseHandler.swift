/// Where ``ContinuationMisuse`` reports go: the reporting floor's routing
/// (Reports/ReportRouter.swift), bound to where each continuation was created.
///
/// One handler is in effect for the whole process (by default
/// ``logToStandardError``); ``withContinuationMisuseHandler(_:isolation:operation:)``
/// overrides it for one operation and the tasks it starts. A continuation
/// remembers the handler in effect where it was *created*, so a leak detected
/// later, on another thread, after the scope ended, still reaches that handler.
///
/// ```swift
/// @main struct App {
///     static func main() async {
///         ContinuationMisuseHandler.bootstrap(.custom { misuse in
///             crashReporter.record(nonFatal: misuse.description)
///         })
///         ...
///     }
/// }
/// ```
///
/// The handler runs synchronously on the thread that detected the misuse
/// (the one calling the extra `resume`, or the one dropping the last copy),
/// never while the toolkit holds a lock. Keep it short and thread-safe.
public struct ContinuationMisuseHandler: Sendable {
    /// The floor's handler this one wraps (Reports/ReportHandler.swift).
    let base: ReportHandler<ContinuationMisuse>

    init(base: ReportHandler<ContinuationMisuse>) {
        self.base = base
    }

    /// A handler that, in a scope, makes a handler of its own for each
    /// continuation created there, on the creating task. For the testing
    /// module; `report` serves direct calls of ``report(_:)``.
    package static func binding(
        atCreation bind: @escaping @Sendable () -> ContinuationMisuseHandler,
        report: @escaping @Sendable (ContinuationMisuse) -> Void
    ) -> Self {
        Self(base: .binding(atCreation: { bind().base }, receive: report))
    }

    /// A handler that calls `report` for every misuse.
    ///
    /// ```swift
    /// let handler = ContinuationMisuseHandler.custom { misuse in
    ///     logger.error("\(misuse)")
    /// }
    /// ```
    public static func custom(_ report: @escaping @Sendable (ContinuationMisuse) -> Void) -> Self {
        Self(base: .custom(report))
    }

    /// The default: writes one line starting with `CONTINUATION MISUSE:` to
    /// standard error and lets the program go on.
    ///
    /// For example: `ContinuationMisuseHandler.bootstrap(.logToStandardError)`
    ///
    /// It is rate-limited, so a bug in a loop cannot flood the log: the first
    /// misuse of a kind from a creation site is written in full; repeats from
    /// the same site and kind are counted and written as one summary line at
    /// most every 10 seconds (and at a normal exit), such as
    /// `CONTINUATION MISUSE: …and 99,999 more from App/main.swift:7 (leaked) in the last 10 s`.
    /// A ``custom(_:)`` handler, ``withContinuationMisuseHandler(_:isolation:operation:)``
    /// and the testing helpers receive every report.
    public static let logToStandardError = Self(base: ContinuationMisuse.reporting.logToStandardError)

    /// Crashes the process with the report, like `CheckedContinuation` does on a
    /// double resume. For people who prefer a crash to a log line.
    ///
    /// ```swift
    /// #if DEBUG
    /// ContinuationMisuseHandler.bootstrap(.trap)
    /// #endif
    /// ```
    public static let trap = Self(base: .custom { misuse in
        fatalError("CONTINUATION MISUSE: \(misuse)")
    })

    /// Installs the process-wide handler. Call it once, at start-up, before
    /// any continuation is created; a second call is a programmer error and
    /// stops the process with a message naming both call sites.
    ///
    /// For example: `ContinuationMisuseHandler.bootstrap(.trap)`
    public static func bootstrap(
        _ handler: ContinuationMisuseHandler, fileID: String = #fileID, line: Int = #line
    ) {
        ContinuationMisuse.reporting.bootstrap(handler.base, fileID: fileID, line: line)
    }

    /// The handler in effect for the current task: the innermost scope, or the
    /// process-wide one.
    ///
    /// For example: `ContinuationMisuseHandler.current.report(misuse)   // rarely needed directly`
    public static var current: ContinuationMisuseHandler {
        Self(base: ContinuationMisuse.reporting.current)
    }

    /// Delivers `misuse` to this handler.
    ///
    /// For example: `ContinuationMisuseHandler.logToStandardError.report(misuse)`
    public func report(_ misuse: ContinuationMisuse) {
        base.report(misuse)
    }

    // MARK: - Routing (the floor's, Reports/ReportRouter.swift)

    /// The scoped handler for a continuation created now, or `nil` when no
    /// scope is active for this task.
    @usableFromInline
    static func scopedHandlerIfAny() -> ContinuationMisuseHandler? {
        ContinuationMisuse.reporting.handlerForNewSource().map(Self.init(base:))
    }

    /// Reports to `scope` if given, else to the process-wide handler.
    @usableFromInline
    static func deliver(_ misuse: ContinuationMisuse, to scope: ContinuationMisuseHandler?) {
        ContinuationMisuse.reporting.deliver(misuse, to: scope?.base)
    }
}

/// The registration of continuation misuse on the reporting floor: routed to
/// the scope in effect where the continuation was created, written to
/// standard error once per creation site and kind. The continuation emits
/// its trace event itself, through the trace token it took at creation.
extension ContinuationMisuse: ConcurrencyReport {
    package static let reporting = ReportRouter<ContinuationMisuse>(
        handlerName: "ContinuationMisuseHandler", banner: "CONTINUATION MISUSE",
        scopedAlternative: "withContinuationMisuseHandler", scoping: .creatingTask,
        scopesChanged: { ContinuationOptions.activeScopes.add($0, ordering: .relaxed) })

    package var rateLimitKey: String { "\(creationSite) (\(kind))" }
}

/// Runs `operation` with `handler` receiving every ``ContinuationMisuse`` of the
/// continuations created inside it (and inside the child tasks it starts),
/// even when the misuse is detected after `operation` returned.
///
/// ```swift
/// try await withContinuationMisuseHandler(.custom { misuse in
///     metrics.increment("continuation_misuse")
/// }) {
///     try await syncEverything()
/// }
/// ```
///
/// Unstructured tasks (`Task { }`) inherit the scope as they inherit any task
/// local; `Task.detached` does not.
public func withContinuationMisuseHandler<Result>(
    _ handler: ContinuationMisuseHandler,
    isolation: isolated (any Actor)? = #isolation,
    operation: () async throws -> Result
) async rethrows -> Result {
    try await ContinuationMisuse.reporting.withScope(handler.base, isolation: isolation, operation: operation)
}
