/// A kind of report the toolkit routes: a ``ContinuationMisuse``, a
/// ``ConcurrencyStall``, and whatever kind comes next. Routing, rate-limited
/// standard error, handler scopes, the trace and the testing helpers are
/// written once, over this protocol (the way swift-log writes its
/// `LogHandler` once for every backend); a new kind is a value type that
/// conforms plus one registration, its ``ReportRouter``.
///
/// The value lives in `Reports/` when a trace event carries it (Diagnostics
/// is above Reports); its registration lives with the part that detects it.
/// `package`: the public face of each kind is its own handler type
/// (`ContinuationMisuseHandler`, `ConcurrencyStallHandler`), a thin wrapper.
package protocol ConcurrencyReport: Error, Sendable, CustomStringConvertible {
    /// The one registration: where reports of this kind go.
    static var reporting: ReportRouter<Self> { get }

    /// Reports with the same key count as repeats for the default handler:
    /// the first is written to standard error in full, the rest summed up
    /// (for a misuse, its site and kind; for a stall, its kind, phase and
    /// first frame).
    var rateLimitKey: String { get }
}
