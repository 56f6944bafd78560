/// How a kind's reports reach the trace recordings. Reports/ sits below
/// Diagnostics and knows no recorder, so a kind's registration passes one:
/// `.events { .stalled($0) }` (built in Diagnostics/) or ``none``.
package struct ReportTracing<Report>: Sendable {
    /// A recording, opaque here (a `TraceRecorder`).
    package typealias Recording = AnyObject & Sendable

    /// Called on the task that opens a scope: the recording it runs in, if any.
    let recordingOfScope: @Sendable () -> Recording?
    /// Emits the report into every active recording (`nil`) or into these.
    let emit: @Sendable (Report, _ into: [Recording]?) -> Void

    package init(
        recordingOfScope: @escaping @Sendable () -> Recording?,
        emit: @escaping @Sendable (Report, _ into: [Recording]?) -> Void
    ) {
        self.recordingOfScope = recordingOfScope
        self.emit = emit
    }

    /// No trace event: the kind emits its own (a continuation emits its
    /// misuse through the trace token it took at creation), or none.
    package static var none: Self {
        Self(recordingOfScope: { nil }, emit: { _, _ in })
    }
}
