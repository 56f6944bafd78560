/// The process-wide half of a report routing (misuse reports, stall
/// reports): one handler for the whole process, installed at most once by a
/// `bootstrap` that remembers its call site, so a second call can name both.
final class ProcessWideHandler<Handler: Sendable>: Sendable {
    private struct State {
        var handler: Handler
        var bootstrapSite: String?
    }

    private let state: Lock<State>
    private let name: String

    init(_ initial: Handler, name: String) {
        state = Lock(State(handler: initial))
        self.name = name
    }

    /// The handler in effect.
    var current: Handler { state.withLock { $0.handler } }

    /// Installs `handler`; a second call stops the process naming both call sites.
    func bootstrap(_ handler: Handler, site: String, scopedAlternative: String) {
        let previous: String? = state.withLock { state in
            if let earlier = state.bootstrapSite { return earlier }
            state.handler = handler
            state.bootstrapSite = site
            return nil
        }
        if let previous {
            preconditionViolated(
                "\(name).bootstrap called twice: first at \(previous), again at \(site). "
                    + "Install the process-wide handler once; use \(scopedAlternative) for a scope.", file: #fileID, line: #line)
        }
    }
}
