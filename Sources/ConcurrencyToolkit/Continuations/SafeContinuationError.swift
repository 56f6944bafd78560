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
/// }
/// ```
public enum SafeContinuationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Every copy of the continuation was dropped without a resume.
    /// A ``ContinuationMisuse`` of kind ``ContinuationMisuse/Kind/leaked`` was reported too.
    case leaked
    /// The `timeout` given to `withSafeThrowingContinuation` passed before any resume.
    case timedOut

    /// What happened, in words.
    ///
    /// ```swift
    /// catch let error as SafeContinuationError { logger.warning("fetch failed: \(error)") }
    /// ```
    public var description: String {
        switch self {
        case .leaked: "the continuation was dropped without being resumed (leaked)"
        case .timedOut: "the continuation was not resumed before its timeout"
        }
    }
}
