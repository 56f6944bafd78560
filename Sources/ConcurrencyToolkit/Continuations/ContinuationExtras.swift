/// What a continuation box keeps only when something unusual was going on
/// where it was created: a scoped misuse handler, a trace recording, a
/// creation backtrace. One optional object instead of three fields, so the
/// plain box is smaller and its `deinit` releases one reference, not five.
///
/// Creating a box asks ``ContinuationOptions/creationFlags()`` once (one call,
/// three relaxed loads); while it returns zero — no scope anywhere, no
/// recording anywhere, no opt-in — the box gets no extras and the task-local
/// lookup and the recorder are never touched. What can wait until a report is
/// made waits: the process-wide handler is read when a misuse is delivered.
///
/// The rule that a report goes to the handler in effect where the
/// continuation was *created* still holds: a scope counts itself in
/// `ContinuationOptions.activeScopes` before it binds its task-local
/// and uncounts itself after it unbinds it, so code running inside a scope
/// (in its task, or in a child started inside it: task creation orders the
/// count before the child) always sees a non-zero count and takes the slow
/// path, which captures the scope here, at creation.
@usableFromInline
final class ContinuationExtras: Sendable {
    /// The scoped handler in effect at creation (nil: the process-wide one).
    let scope: ContinuationMisuseHandler?
    /// The recording this wait belongs to, if one was active where it was created.
    let trace: TraceToken?
    /// Who created it, when ``ContinuationMisuse/capturesCreationBacktraces`` was on.
    let backtrace: CreationBacktrace?

    private init(scope: ContinuationMisuseHandler?, trace: TraceToken?, backtrace: CreationBacktrace?) {
        self.scope = scope
        self.trace = trace
        self.backtrace = backtrace
    }

    /// The slow path of creation, for `flags != 0`: captures what is in
    /// effect here and says which links the box needs. `nil` extras when
    /// nothing applied to this task after all (a scope active elsewhere).
    @usableFromInline @inline(never)
    static func capture(at site: CallSite, flags: UInt8, timeout: Duration?)
        -> (extras: ContinuationExtras?, links: ContinuationLinks)
    {
        let scope = flags & ContinuationOptions.scoped == 0 ? nil : ContinuationMisuseHandler.scopedHandlerIfAny()
        let trace = flags & ContinuationOptions.traced == 0 ? nil : Instrumentation.beginWait(at: site)
        let backtrace = flags & ContinuationOptions.backtraces == 0 ? nil : CreationBacktrace.capture()
        var links: ContinuationLinks = timeout == nil ? [] : .timed
        if trace != nil { links.insert(.traced) }
        if flags & ContinuationOptions.tracking != 0 { links.insert(.registered) }
        guard scope != nil || trace != nil || backtrace != nil else { return (nil, links) }
        return (ContinuationExtras(scope: scope, trace: trace, backtrace: backtrace), links)
    }
}
