/// Errors a throwing `SafeContinuation` waiter can receive instead of hanging.
///
/// ```swift
/// do {
///     let data = try await withSafeThrowingContinuation(timeout: .seconds(5)) { c in
///         legacyFetch { c.resume(returning: $0) }
///     }
/// } catch SafeContinuationError.timedOut {
///     // the callback did not arrive within 5 seconds
/// } catch SafeContinuationError.leaked {
///     // the callback API dropped the continuation without calling back
/// } catch let error as SafeContinuationError {
///     logger.warning("\(error)")   // names the creation site (and the timeout)
/// }
/// ```
///
/// An open set: a later version may add codes, so a `switch` on ``code``
/// needs a `default:`. Two errors are equal when their codes are: the
/// creation site and the timeout are context for the message, so
/// `error == .timedOut`, `#expect(throws: SafeContinuationError.timedOut)`,
/// `catch SafeContinuationError.timedOut` and `if case .leaked = error` match
/// whatever continuation threw.
public struct SafeContinuationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which way the wait ended.
    ///
    /// ```swift
    /// switch error.code {
    /// case .timedOut: retry()
    /// case .leaked: reportBug()
    /// default: break
    /// }
    /// ```
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let value: UInt8
        private init(_ value: UInt8) { self.value = value }

        /// Every copy of the continuation was dropped without a resume.
        ///
        /// For example: `if error.code == .leaked { assertionFailure("\(error)") }`
        public static let leaked = Code(1)
        /// The `timeout` passed before any resume.
        ///
        /// For example: `if error.code == .timedOut { metrics.increment("fetch.timeout") }`
        public static let timedOut = Code(2)

        /// The code's name, as in `timedOut`.
        ///
        /// For example: `metrics.increment("continuation.\(error.code)")`
        public var description: String {
            switch value {
            case 1: "leaked"
            case 2: "timedOut"
            default: "code \(value)"
            }
        }
    }

    /// Which way the wait ended.
    ///
    /// For example: `#expect(error.code == .timedOut)`
    public var code: Code
    /// Where the continuation was created; `nil` only in an error built for a
    /// comparison, such as ``leaked`` itself.
    ///
    /// For example: `logger.warning("no answer for the call at \(error.creationSite!)")`
    public var creationSite: CallSite?
    /// For ``Code/timedOut``: the timeout the continuation was given.
    ///
    /// For example: `if let timeout = error.timeout { logger.info("gave up after \(timeout)") }`
    public var timeout: Duration?

    /// Creates an error; the toolkit makes these, tests may make their own.
    ///
    /// ```swift
    /// let error = SafeContinuationError(code: .timedOut, creationSite: CallSite(), timeout: .seconds(1))
    /// ```
    public init(code: Code, creationSite: CallSite? = nil, timeout: Duration? = nil) {
        self.code = code
        self.creationSite = creationSite
        self.timeout = timeout
    }

    /// Every copy of the continuation was dropped without a resume.
    /// A ``ContinuationMisuse`` of kind ``ContinuationMisuse/Kind/leaked`` was reported too.
    ///
    /// For example: `do { try await fetch() } catch SafeContinuationError.leaked { reportBug() }`
    public static var leaked: SafeContinuationError { SafeContinuationError(code: .leaked) }
    /// The `timeout` given to `withSafeThrowingContinuation` passed before any resume.
    ///
    /// For example: `do { try await fetch() } catch SafeContinuationError.timedOut { retry() }`
    public static var timedOut: SafeContinuationError { SafeContinuationError(code: .timedOut) }

    /// Equal when the codes are; see the type's documentation.
    ///
    /// For example: `#expect(error == .timedOut)`
    public static func == (lhs: SafeContinuationError, rhs: SafeContinuationError) -> Bool {
        lhs.code == rhs.code
    }

    /// Hashes the code only, as ``==(_:_:)`` compares it only.
    ///
    /// For example: `let seen: Set<SafeContinuationError> = [.timedOut, .leaked]`
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
    }

    /// Lets `catch SafeContinuationError.timedOut` and `case .failure(SafeContinuationError.leaked)`
    /// match any error with that code.
    ///
    /// For example: `do { try await fetch() } catch SafeContinuationError.timedOut { retry() }`
    public static func ~= (pattern: SafeContinuationError, value: any Error) -> Bool {
        (value as? SafeContinuationError)?.code == pattern.code
    }

    /// Lets `if case .leaked = error` match by code.
    ///
    /// For example: `if case .leaked = error { reportBug(error) }`
    public static func ~= (pattern: SafeContinuationError, value: SafeContinuationError) -> Bool {
        value.code == pattern.code
    }

    /// What happened, where the continuation was created and, for a timeout,
    /// how long it waited.
    ///
    /// ```swift
    /// do { try await fetch() } catch let error as SafeContinuationError { logger.warning("fetch failed: \(error)") }
    /// // "the continuation created at Net/Fetch.swift:12 in fetch(_:) was not resumed within its timeout of 5.0 seconds"
    /// ```
    public var description: String {
        let created = creationSite.map { " created at \($0)" } ?? ""
        switch code {
        case .leaked:
            return "the continuation\(created) was dropped without being resumed (leaked);"
                + " the callback API never called back. Resume it on every path."
        case .timedOut:
            let limit = timeout.map { " of \(Self.format($0))" } ?? ""
            return "the continuation\(created) was not resumed within its timeout\(limit)"
        default:
            return "the continuation\(created) ended without a resume (\(code))"
        }
    }

    /// `1.5 seconds`, `300 milliseconds`.
    static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        if seconds == 0 && attoseconds % 1_000_000_000_000_000 == 0 {
            return "\(attoseconds / 1_000_000_000_000_000) milliseconds"
        }
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return value == 1 ? "1 second" : "\(value) seconds"
    }
}
