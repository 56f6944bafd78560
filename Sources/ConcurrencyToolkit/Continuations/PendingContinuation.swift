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
    ///
    /// For example: `let bySite = Dictionary(grouping: snapshot.pending, by: \.site)`
    public var site: CallSite
    /// How long it has been waiting when the snapshot was taken.
    ///
    /// For example: `let stuck = snapshot.pending.filter { $0.age > .seconds(30) }`
    public var age: Duration
    /// The priority of the task that created it, at creation.
    ///
    /// For example: `let blockingUI = snapshot.pending.filter { $0.priority >= .userInitiated }`
    public var priority: TaskPriority
    /// The timeout it was given, if any.
    ///
    /// For example: `let unbounded = snapshot.pending.filter { $0.timeout == nil }   // candidates for a timeout`
    public var timeout: Duration?

    /// Creates an entry; the toolkit creates these for snapshots.
    ///
    /// For example: `let entry = PendingContinuation(site: CallSite(), age: .seconds(2), priority: .medium)`
    public init(site: CallSite, age: Duration, priority: TaskPriority, timeout: Duration? = nil) {
        self.site = site
        self.age = age
        self.priority = priority
        self.timeout = timeout
    }

    /// `site, waiting for AGE (priority P, timeout T)`.
    ///
    /// For example: `snapshot.pending.forEach { print($0) }`
    public var description: String {
        let limit = timeout.map { ", timeout \($0)" } ?? ""
        return "\(site), waiting for \(age) (priority \(priority.rawValue)\(limit))"
    }
}
