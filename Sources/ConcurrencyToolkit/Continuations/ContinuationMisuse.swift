/// A report that a continuation was used wrongly: resumed twice, or never.
///
/// `SafeContinuation` never crashes on misuse (unless the process installed
/// ``ContinuationMisuseHandler/trap``). It hands a `ContinuationMisuse` to the
/// handler that was in effect where the continuation was *created*:
///
/// ```swift
/// ContinuationMisuseHandler.bootstrap(.custom { misuse in
///     logger.error("\(misuse)")          // e.g. send it to your crash reporter
/// })
/// ```
public struct ContinuationMisuse: Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    ///
    /// ```swift
    /// switch misuse.kind {
    /// case .resumedMoreThanOnce: metrics.increment("continuation.double_resume")
    /// case .leaked: metrics.increment("continuation.leak")
    /// }
    /// ```
    public enum Kind: Sendable, Hashable {
        /// `resume` was called after the continuation had already been resumed.
        /// The extra call was ignored.
        case resumedMoreThanOnce
        /// Every copy of the continuation was dropped without a resume. The
        /// waiter was resumed with `SafeContinuationError.leaked` (throwing form)
        /// or with the caller's fallback value (non-throwing form).
        case leaked
    }

    /// What went wrong.
    ///
    /// ```swift
    /// #expect(misuses.map(\.kind) == [.leaked])
    /// ```
    public var kind: Kind
    /// Where the continuation was created (the `withSafe…Continuation` call).
    ///
    /// ```swift
    /// logger.error("continuation from \(misuse.creationSite.fileID):\(misuse.creationSite.line) misused")
    /// ```
    public var creationSite: CallSite
    /// For ``Kind/resumedMoreThanOnce``: where the extra `resume` was called.
    /// `nil` for ``Kind/leaked``.
    ///
    /// ```swift
    /// if let extra = misuse.resumeSite { print("second resume at \(extra)") }
    /// ```
    public var resumeSite: CallSite?

    /// Creates a report. The toolkit creates these; tests may build their own
    /// to compare against:
    ///
    /// ```swift
    /// #expect(misuses.map(\.kind) == [.resumedMoreThanOnce])
    /// ```
    public init(kind: Kind, creationSite: CallSite, resumeSite: CallSite? = nil) {
        self.kind = kind
        self.creationSite = creationSite
        self.resumeSite = resumeSite
    }

    /// One line a developer can act on, naming both sites.
    ///
    /// ```swift
    /// print(misuse)   // "SafeContinuation created at App/Net.swift:12 in get() was resumed more than once; ..."
    /// ```
    public var description: String {
        switch kind {
        case .resumedMoreThanOnce:
            let extra = resumeSite.map { " by \($0)" } ?? ""
            return "SafeContinuation created at \(creationSite) was resumed more than once;"
                + " the extra resume\(extra) was ignored. Resume exactly once on every path."
        case .leaked:
            return "SafeContinuation created at \(creationSite) was dropped without being resumed;"
                + " the waiter was resumed with the leak fallback. Resume on every path, including errors."
        }
    }
}
