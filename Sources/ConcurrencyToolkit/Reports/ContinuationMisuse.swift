// The report, not the reporting: it lives in Reports/ because a trace event
// carries it and Diagnostics/ must not depend on Continuations/ (see
// ARCHITECTURE.md). Its registration and public handler are in Continuations/.

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
///
/// A misuse is also an `Error`, so a test helper or a crash reporter that
/// takes errors can carry it as it is.
public struct ContinuationMisuse: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong: an open set, so a later version may add kinds
    /// without breaking your `switch` (give it a `default:`).
    ///
    /// ```swift
    /// switch misuse.kind {
    /// case .resumedMoreThanOnce: metrics.increment("continuation.double_resume")
    /// case .leaked: metrics.increment("continuation.leak")
    /// default: metrics.increment("continuation.misuse")
    /// }
    /// ```
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private let code: UInt8
        private init(_ code: UInt8) { self.code = code }

        /// `resume` was called after the continuation had already been resumed.
        /// The extra call was ignored.
        ///
        /// For example: `if misuse.kind == .resumedMoreThanOnce { print("extra resume at \(misuse.resumeSite!)") }`
        public static let resumedMoreThanOnce = Kind(1)
        /// Every copy of the continuation was dropped without a resume. What
        /// the waiter got then depends on the form (see ``ContinuationMisuse/description``):
        /// `SafeContinuationError.leaked`, the `ifLeaked:` fallback, `()` or
        /// `nil`; without a fallback it stays suspended.
        ///
        /// For example: `#expect(misuses.map(\.kind) == [.leaked])`
        public static let leaked = Kind(2)

        /// The kind's name, as in `resumedMoreThanOnce`.
        ///
        /// For example: `metrics.increment("continuation.\(misuse.kind)")`
        public var description: String {
            switch code {
            case 1: "resumedMoreThanOnce"
            case 2: "leaked"
            default: "kind \(code)"
            }
        }
    }

    /// What went wrong.
    ///
    /// For example: `#expect(misuses.map(\.kind) == [.leaked])`
    public var kind: Kind
    /// Where the continuation was created (the `withSafe…Continuation` call,
    /// or the `function:`/`fileID:`/`line:` a wrapper passed on).
    ///
    /// ```swift
    /// logger.error("continuation from \(misuse.creationSite.fileID):\(misuse.creationSite.line) misused")
    /// ```
    public var creationSite: CallSite
    /// For ``Kind/resumedMoreThanOnce``: where the extra `resume` was called.
    /// `nil` for ``Kind/leaked``.
    ///
    /// For example: `if let extra = misuse.resumeSite { print("second resume at \(extra)") }`
    public var resumeSite: CallSite?
    /// The frames that created the continuation, innermost first, as
    /// `function at file:line`, with the toolkit's own frames left out.
    /// Empty unless ``capturesCreationBacktraces`` was on when the
    /// continuation was created. Through any number of wrappers, this is
    /// where your own code shows up.
    ///
    /// ```swift
    /// ContinuationMisuse.capturesCreationBacktraces = true
    /// ...
    /// print(misuse.creationBacktrace.joined(separator: "\n"))
    /// ```
    public var creationBacktrace: [String]
    /// What a leak did to the waiter (nil for other kinds).
    var leakOutcome: LeakOutcome?

    /// Creates a report. The toolkit creates these; tests may build their own
    /// to compare against.
    ///
    /// For example: `let expected = ContinuationMisuse(kind: .leaked, creationSite: CallSite())`
    public init(kind: Kind, creationSite: CallSite, resumeSite: CallSite? = nil) {
        self.kind = kind
        self.creationSite = creationSite
        self.resumeSite = resumeSite
        self.creationBacktrace = []
    }

    init(leakedAt creationSite: CallSite, outcome: LeakOutcome, backtrace: [String]) {
        self.init(kind: .leaked, creationSite: creationSite)
        self.leakOutcome = outcome
        self.creationBacktrace = backtrace
    }

    /// One line a developer can act on: the sites, what happened to the
    /// waiter, and what to do.
    ///
    /// ```swift
    /// print(misuse)   // "SafeContinuation created at App/Net.swift:12 in get() was resumed more than once; ..."
    /// ```
    public var description: String {
        var text: String
        if kind == .resumedMoreThanOnce {
            let extra = resumeSite.map { " by \($0)" } ?? ""
            text = "SafeContinuation created at \(creationSite) was resumed more than once;"
                + " the extra resume\(extra) was ignored. Resume exactly once on every path."
        } else if kind == .leaked {
            text = "SafeContinuation created at \(creationSite) was dropped without being resumed; "
                + (leakOutcome ?? .unknown).sentence + " Resume on every path, including errors."
        } else {
            text = "SafeContinuation created at \(creationSite) was misused (\(kind))."
        }
        if !creationBacktrace.isEmpty {
            text += " Created from: " + creationBacktrace.joined(separator: " <- ")
        }
        return text
    }
}

/// What a leak did to the waiter, which depends on the form that created the
/// continuation: the report says so in words.
@usableFromInline
enum LeakOutcome: Sendable, Hashable {
    /// The throwing form: the waiter threw `SafeContinuationError.leaked`.
    case threwLeaked
    /// `withSafeContinuation(ifLeaked:)`: the waiter got the fallback.
    case returnedFallback
    /// A `Void` continuation: the waiter was resumed.
    case returnedVoid
    /// An `Optional` continuation without `ifLeaked:`: the waiter got `nil`.
    case returnedNil
    /// No fallback: the waiter cannot be resumed and stays suspended.
    case stillSuspended
    /// A report built by hand, without an outcome.
    case unknown

    var sentence: String {
        switch self {
        case .threwLeaked: "the waiter threw SafeContinuationError.leaked."
        case .returnedFallback: "the waiter was resumed with its ifLeaked: fallback value."
        case .returnedVoid: "the waiter (a Void continuation) was resumed as if resumed normally."
        case .returnedNil: "the waiter (an Optional continuation) was resumed with nil."
        case .stillSuspended:
            "the waiter has no fallback value, so it stays suspended forever"
                + " (pass ifLeaked:, or use withSafeThrowingContinuation, to have it resumed)."
        case .unknown: "the waiter was resumed or stays suspended, depending on the form."
        }
    }
}
