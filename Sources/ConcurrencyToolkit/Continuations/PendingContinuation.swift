/// One continuation that has not been resumed yet, as listed by
/// ``PendingContinuations/snapshot()``.
///
/// ```swift
/// for waiting in PendingContinuations.snapshot().pending where waiting.age > .seconds(30) {
///     print("stuck for \(waiting.age) at \(waiting.site), priority \(waiting.priority)")
/// }
/// ```
public struct PendingContinuation: Sendable, Equatable, CustomStringConvertible {
    /// Where the continuation was created (the `withSafe…Continuation` call).
    public var site: ContinuationSite
    /// How long it has been waiting when the snapshot was taken.
    public var age: Duration
    /// The priority of the task that created it, at creation.
    public var priority: TaskPriority
    /// The timeout it was given, if any.
    public var timeout: Duration?

    /// Creates an entry; the toolkit creates these for snapshots.
    ///
    /// ```swift
    /// let entry = PendingContinuation(site: ContinuationSite(), age: .seconds(2), priority: .medium)
    /// ```
    public init(site: ContinuationSite, age: Duration, priority: TaskPriority, timeout: Duration? = nil) {
        self.site = site
        self.age = age
        self.priority = priority
        self.timeout = timeout
    }

    /// `site, waiting for AGE (priority P)`.
    public var description: String {
        let limit = timeout.map { ", timeout \($0)" } ?? ""
        return "\(site), waiting for \(age) (priority \(priority.rawValue)\(limit))"
    }
}
