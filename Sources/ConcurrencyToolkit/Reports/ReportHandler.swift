/// Receives reports of one kind: the value that a process-wide bootstrap, a
/// scope and the testing helpers install. Each kind's public handler type
/// (`ConcurrencyStallHandler`) wraps one.
///
/// It runs on the thread that delivers the report, never while the toolkit
/// holds a lock: keep it short and thread-safe.
package struct ReportHandler<Report: ConcurrencyReport>: Sendable {
    let receive: @Sendable (Report) -> Void
    /// For a scope of a ``ReportRouter/Scoping/creatingTask`` kind that must
    /// capture where each source is created (the misuse trait records issues
    /// in the creating task's context): called on the creating task, its
    /// result receives that source's reports.
    let bindAtCreation: (@Sendable () -> ReportHandler)?

    private init(receive: @escaping @Sendable (Report) -> Void, bindAtCreation: (@Sendable () -> ReportHandler)?) {
        self.receive = receive
        self.bindAtCreation = bindAtCreation
    }

    /// A handler that calls `receive` for every report.
    package static func custom(_ receive: @escaping @Sendable (Report) -> Void) -> Self {
        Self(receive: receive, bindAtCreation: nil)
    }

    /// A handler that, in a scope, makes a handler of its own for each source
    /// created there, on the creating task; `receive` serves direct calls.
    package static func binding(
        atCreation bind: @escaping @Sendable () -> ReportHandler, receive: @escaping @Sendable (Report) -> Void
    ) -> Self {
        Self(receive: receive, bindAtCreation: bind)
    }

    /// The default handler's shape: one block per report, starting with
    /// `banner: `, written through `limiter`, keyed by ``ConcurrencyReport/rateLimitKey``.
    package static func writing(to limiter: ReportRateLimitStorage, banner: String) -> Self {
        custom { report in limiter.report(key: report.rateLimitKey, line: "\(banner): \(report)\n") }
    }

    /// This handler, given only the reports `accepts` says yes to (a scope's
    /// threshold). Reports bound at creation are filtered too.
    package func filtered(by accepts: @escaping @Sendable (Report) -> Bool) -> Self {
        let receive = self.receive
        var bind: (@Sendable () -> ReportHandler)?
        if let outer = bindAtCreation {
            bind = { outer().filtered(by: accepts) }
        }
        return Self(receive: { report in if accepts(report) { receive(report) } }, bindAtCreation: bind)
    }

    /// Delivers `report` to this handler.
    package func report(_ report: Report) {
        receive(report)
    }
}
