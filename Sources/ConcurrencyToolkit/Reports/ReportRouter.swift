import Synchronization

/// Where the reports of one kind go, written once for every kind: a
/// process-wide handler bootstrapped once (by default the rate-limited
/// standard-error block), scopes that override it, and the trace. Each
/// ``ConcurrencyReport`` has one, its `reporting`.
///
/// Handlers run on the delivering thread after every lock here is released.
package final class ReportRouter<Report: ConcurrencyReport>: Sendable {
    /// Which scopes a report reaches.
    package enum Scoping: Sendable {
        /// The scope in effect where the report's *source* was created (a
        /// continuation), taken from the creating task's task-local value, so
        /// a report detected later, on another thread, still reaches it.
        /// Deliver with ``deliver(_:to:)``.
        case creatingTask
        /// Every scope active when the report is delivered, whoever caused it
        /// (a stall belongs to the process, not to a task). Deliver with
        /// ``deliver(_:toProcessWide:intoEveryRecording:)``.
        case whileActive
    }

    /// What starts each line written to standard error, as `CONCURRENCY STALL`.
    package let banner: String
    package let scoping: Scoping
    /// The default handler: writes `banner: report` to standard error, the
    /// first report per ``ConcurrencyReport/rateLimitKey`` in full, repeats
    /// summed up at most every 10 s and at exit.
    package let logToStandardError: ReportHandler<Report>
    package let standardErrorLimiter: ReportRateLimitStorage
    let processWide: ProcessWideHandler<ReportHandler<Report>>
    let scopedAlternative: String
    let tracing: ReportTracing<Report>

    /// How many scopes are active anywhere. While it is zero, creating a
    /// source skips the task-local lookup: one relaxed load.
    package let activeScopes = Atomic<Int>(0)
    /// Told `+1` as a scope begins (after `activeScopes`, before the
    /// task-local is bound) and `-1` as it ends (after it is unbound): for a
    /// kind whose sources are created on a hot path that must not read this
    /// router at all. A router is a lazily initialized global (reading it
    /// costs a `swift_once` call); such a kind counts its scopes again in a
    /// statically initialized atomic of its own (`ContinuationOptions`).
    let scopesChanged: (@Sendable (_ delta: Int) -> Void)?
    /// ``Scoping/creatingTask``: the innermost scope of the current task.
    let taskScope = TaskLocal<ReportHandler<Report>?>(wrappedValue: nil)
    /// ``Scoping/whileActive``: the scopes active now, by id, in the order they began.
    let activeList = Lock<(next: UInt64, scopes: [(id: UInt64, scope: ActiveScope)])>((0, []))

    struct ActiveScope {
        let handler: ReportHandler<Report>
        /// The trace recording the scope runs in, if any: it gets the trace events.
        let recording: ReportTracing<Report>.Recording?
    }

    /// - Parameters:
    ///   - handlerName: The public handler type's name, for the message of a second bootstrap.
    ///   - banner: Starts every line the default handler writes (`"CONCURRENCY STALL"`).
    ///   - scopedAlternative: The scoped function a second bootstrap should use instead.
    ///   - scoping: Which scopes a report reaches.
    ///   - tracing: How reports reach trace recordings.
    ///   - scopesChanged: Told `+1` when a scope begins and `-1` when it ends.
    package init(
        handlerName: String, banner: String, scopedAlternative: String, scoping: Scoping,
        tracing: ReportTracing<Report> = .none, scopesChanged: (@Sendable (_ delta: Int) -> Void)? = nil
    ) {
        self.banner = banner
        self.scopesChanged = scopesChanged
        self.scoping = scoping
        self.scopedAlternative = scopedAlternative
        self.tracing = tracing
        standardErrorLimiter = ReportRateLimitStorage(summaryPrefix: "\(banner): ")
        logToStandardError = .writing(to: standardErrorLimiter, banner: banner)
        processWide = ProcessWideHandler(logToStandardError, name: handlerName)
    }

    /// Installs the process-wide handler; a second call stops the process
    /// naming both call sites.
    package func bootstrap(_ handler: ReportHandler<Report>, fileID: String, line: Int) {
        processWide.bootstrap(handler, site: "\(fileID):\(line)", scopedAlternative: scopedAlternative)
    }

    /// The process-wide handler in effect.
    package var processWideHandler: ReportHandler<Report> { processWide.current }

    /// Whether any scope is active anywhere (one relaxed load).
    @inline(__always)
    package var hasActiveScopes: Bool { activeScopes.load(ordering: .relaxed) != 0 }

    /// Runs `operation` with `handler` in a scope: for ``Scoping/creatingTask``,
    /// the sources created in its task tree; for ``Scoping/whileActive``, every
    /// report delivered until it returns. `accepts` filters what the scope gets.
    package func withScope<Result>(
        _ handler: ReportHandler<Report>, accepting accepts: (@Sendable (Report) -> Bool)? = nil,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        let handler = accepts.map { handler.filtered(by: $0) } ?? handler
        activeScopes.add(1, ordering: .relaxed)
        scopesChanged?(1)
        defer {
            scopesChanged?(-1)
            activeScopes.subtract(1, ordering: .relaxed)
        }
        switch scoping {
        case .creatingTask:
            return try await taskScope.withValue(handler, operation: operation, isolation: isolation)
        case .whileActive:
            let scope = ActiveScope(handler: handler, recording: tracing.recordingOfScope())
            let id = activeList.withLock { list in
                list.next += 1
                list.scopes.append((list.next, scope))
                return list.next
            }
            defer { activeList.withLock { $0.scopes.removeAll { $0.id == id } } }
            return try await operation()
        }
    }

    // MARK: - Scoping.creatingTask

    /// The handler in effect for the current task: its innermost scope, or the process-wide one.
    package var current: ReportHandler<Report> {
        (hasActiveScopes ? taskScope.get() : nil) ?? processWide.current
    }

    /// The scoped handler for a source created now, on its creating task, or
    /// `nil` when no scope is active for this task (then reports go to the
    /// process-wide handler in effect when they are delivered).
    package func handlerForNewSource() -> ReportHandler<Report>? {
        guard hasActiveScopes, let scoped = taskScope.get() else { return nil }
        return scoped.bindAtCreation?() ?? scoped
    }

    /// Delivers `report` to the handler its source captured, else to the process-wide one.
    package func deliver(_ report: Report, to captured: ReportHandler<Report>?) {
        (captured ?? processWide.current).report(report)
    }

    // MARK: - Scoping.whileActive

    /// Delivers `report` to every active scope (each filtering by its own
    /// threshold) or, when none is active, to the process-wide handler if
    /// `toProcessWide`. As a trace event it goes into every active recording
    /// when `intoEveryRecording` (the process asked for these reports), else
    /// into the recordings the scopes run in.
    package func deliver(_ report: Report, toProcessWide: Bool, intoEveryRecording: Bool) {
        let active = activeList.withLock { $0.scopes.map(\.scope) }
        tracing.emit(report, intoEveryRecording ? nil : active.compactMap(\.recording))
        if active.isEmpty {
            if toProcessWide { processWide.current.report(report) }
            return
        }
        for scope in active { scope.handler.report(report) }
    }
}
