#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Where ``ContinuationMisuse`` reports go.
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
    let report: @Sendable (ContinuationMisuse) -> Void
    /// For a scoped handler that must capture where each continuation is
    /// created (the testing trait records issues in the creating task's
    /// context): called on the creating task, its result receives that
    /// continuation's reports.
    let bindAtCreation: (@Sendable () -> ContinuationMisuseHandler)?

    init(report: @escaping @Sendable (ContinuationMisuse) -> Void) {
        self.report = report
        self.bindAtCreation = nil
    }

    private init(
        report: @escaping @Sendable (ContinuationMisuse) -> Void,
        bindAtCreation: @escaping @Sendable () -> ContinuationMisuseHandler
    ) {
        self.report = report
        self.bindAtCreation = bindAtCreation
    }

    /// A handler that, in a scope, makes a handler of its own for each
    /// continuation created there, on the creating task. For the testing
    /// module; `report` serves direct calls of ``report(_:)``.
    package static func binding(
        atCreation bind: @escaping @Sendable () -> ContinuationMisuseHandler,
        report: @escaping @Sendable (ContinuationMisuse) -> Void
    ) -> Self {
        Self(report: report, bindAtCreation: bind)
    }

    /// A handler that calls `report` for every misuse.
    ///
    /// ```swift
    /// let handler = ContinuationMisuseHandler.custom { misuse in
    ///     logger.error("\(misuse)")
    /// }
    /// ```
    public static func custom(_ report: @escaping @Sendable (ContinuationMisuse) -> Void) -> Self {
        Self(report: report)
    }

    /// The default: writes one line starting with `CONTINUATION MISUSE:` to
    /// standard error and lets the program go on.
    ///
    /// ```swift
    /// ContinuationMisuseHandler.bootstrap(.logToStandardError)
    /// ```
    ///
    /// It is rate-limited, so a bug in a loop cannot flood the log: the first
    /// misuse of a kind from a creation site is written in full; repeats from
    /// the same site and kind are counted and written as one summary line at
    /// most every 10 seconds (and at a normal exit), such as
    /// `CONTINUATION MISUSE: …and 99,999 more from App/main.swift:7 (leaked) in the last 10 s`.
    /// A ``custom(_:)`` handler, ``withContinuationMisuseHandler(_:isolation:operation:)``
    /// and the testing helpers receive every report.
    public static let logToStandardError = Self { misuse in
        standardErrorLimiter.report(
            key: "\(misuse.creationSite) (\(misuse.kind))", line: "CONTINUATION MISUSE: \(misuse)\n")
    }

    static let standardErrorLimiter = ReportRateLimiter(summaryPrefix: "CONTINUATION MISUSE: ")

    /// Crashes the process with the report, like `CheckedContinuation` does on a
    /// double resume. For people who prefer a crash to a log line.
    ///
    /// ```swift
    /// #if DEBUG
    /// ContinuationMisuseHandler.bootstrap(.trap)
    /// #endif
    /// ```
    public static let trap = Self { misuse in
        fatalError("CONTINUATION MISUSE: \(misuse)")
    }

    /// Installs the process-wide handler. Call it once, at start-up, before
    /// any continuation is created; a second call is a programmer error and
    /// stops the process with a message naming both call sites.
    ///
    /// ```swift
    /// ContinuationMisuseHandler.bootstrap(.trap)
    /// ```
    public static func bootstrap(
        _ handler: ContinuationMisuseHandler, fileID: String = #fileID, line: Int = #line
    ) {
        processWide.bootstrap(
            handler, site: "\(fileID):\(line)", scopedAlternative: "withContinuationMisuseHandler")
    }

    /// The handler in effect for the current task: the innermost scope, or the
    /// process-wide one.
    ///
    /// ```swift
    /// ContinuationMisuseHandler.current.report(misuse)   // rarely needed directly
    /// ```
    public static var current: ContinuationMisuseHandler {
        (activeScopes.load(ordering: .relaxed) == 0 ? nil : scoped) ?? processWide.current
    }

    /// Delivers `misuse` to this handler.
    ///
    /// ```swift
    /// ContinuationMisuseHandler.logToStandardError.report(misuse)
    /// ```
    public func report(_ misuse: ContinuationMisuse) {
        report(misuse)
    }

    // MARK: - Storage

    static let processWide = ProcessWideHandler(Self.logToStandardError, name: "ContinuationMisuseHandler")

    @TaskLocal static var scoped: ContinuationMisuseHandler?

    /// How many scopes are active anywhere. While it is zero, creating a
    /// continuation skips the task-local lookup: one relaxed load.
    static let activeScopes = Atomic<Int>(0)

    /// The scoped handler for a continuation created now, or `nil` when no
    /// scope is active for this task.
    @usableFromInline
    static func scopedHandlerIfAny() -> ContinuationMisuseHandler? {
        guard activeScopes.load(ordering: .relaxed) != 0, let scoped else { return nil }
        return scoped.bindAtCreation?() ?? scoped
    }

    /// Reports to `scope` if given, else to the process-wide handler.
    @usableFromInline
    static func deliver(_ misuse: ContinuationMisuse, to scope: ContinuationMisuseHandler?) {
        let handler = scope ?? processWide.current
        handler.report(misuse)
    }
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
    ContinuationMisuseHandler.activeScopes.add(1, ordering: .relaxed)
    defer { ContinuationMisuseHandler.activeScopes.subtract(1, ordering: .relaxed) }
    return try await ContinuationMisuseHandler.$scoped.withValue(
        handler, operation: operation, isolation: isolation)
}
