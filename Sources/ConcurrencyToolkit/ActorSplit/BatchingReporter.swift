/// Collects every reported element and hands them to an actor in ordered
/// batches, at most once per interval: many log lines, one actor hop.
///
/// ```swift
/// actor LogStore {
///     private(set) var lines: [String] = []
///     func append(_ batch: [String]) { lines += batch }
/// }
///
/// let store = LogStore()
/// let log = BatchingReporter<String>(interval: .milliseconds(20), capacity: 10_000) { lines in
///     await store.append(lines)        // one actor call per batch, not per line
/// }
/// log.report("squeezing \(path)")      // from any thread
/// await log.finish()                   // every accepted line is in the store
/// ```
///
/// - Every accepted element is delivered exactly once, in the order the
///   reports were made (across threads: the order in which they took the lock).
/// - ``report(_:)`` is synchronous and never waits for the consumer.
/// - Memory is bounded by `capacity`: when that many elements are waiting,
///   `report` refuses the new element and returns `false`, and
///   ``droppedCount`` grows. Elements already accepted are never dropped
///   (except by ``cancel()``). At most `2 × capacity` elements are alive: the
///   pending ones and the batch being delivered.
/// - ``finish(function:fileID:line:)``, ``cancel()`` and dropping the reporter behave as in
///   ``ThrottledProgress``: `finish` delivers the rest at once and waits.
public final class BatchingReporter<Element: Sendable>: Sendable {
    @usableFromInline let storage: ThrottleStorage<AccumulatingBuffer<Element>>

    /// Creates a reporter that calls `deliver` with the elements reported since
    /// the last delivery, at most once per `interval`.
    ///
    /// ```swift
    /// let log = BatchingReporter<String>(interval: .milliseconds(20), capacity: 10_000) { @MainActor lines in
    ///     console.append(contentsOf: lines)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The minimum time between two deliveries.
    ///   - capacity: How many elements may wait for delivery; must be at least 1.
    ///   - clock: Measures the interval; pass a manual clock in tests.
    ///   - deliver: Receives each batch, oldest element first. Runs on its own
    ///     isolation, never concurrently with itself. It may be `async` (to call
    ///     an actor instance, as above); the next batch waits until it returns,
    ///     so a slow handler makes batches larger, not more numerous.
    ///     Written in actor-isolated code (a `@MainActor` function or type, a
    ///     file whose default isolation is `MainActor`, or an actor's method
    ///     when the closure uses `self`), the closure is isolated to that
    ///     actor, as a `Task { }` closure is:
    ///     `{ lines in model.lines += lines }` needs no `@MainActor`. Written in
    ///     nonisolated code, it is nonisolated unless annotated (`{ @MainActor lines in … }`).
    ///     To keep an `async` handler written in `@MainActor` code off the main
    ///     actor (it only forwards to another actor), write
    ///     `{ @concurrent lines in await logs.append(lines) }`.
    /// - Precondition: `interval >= .zero` and `capacity >= 1`. A bad value
    ///   stops the process, in release builds too, with a message naming it.
    public init(
        interval: Duration, capacity: Int, clock: some Clock<Duration> = ContinuousClock(),
        @_inheritActorContext _ deliver: @escaping @isolated(any) @Sendable ([Element]) async -> Void
    ) {
        checkPrecondition(
            capacity >= 1,
            "BatchingReporter(capacity: \(capacity)): capacity must be at least 1 (how many elements may wait for delivery)")
        storage = ThrottleStorage(
            buffer: AccumulatingBuffer(capacity: capacity), interval: interval, clock: ThrottleClock(clock),
            deliver: deliver)
    }

    deinit {
        storage.cancel()
    }

    /// Queues `element` for the next batch.
    ///
    /// For example: `if !log.report("compressed \(path)") { print("log full: a line was dropped") }`
    ///
    /// - Returns: `true` if the element will be delivered; `false` if it was
    ///   dropped because `capacity` elements are already waiting (the consumer
    ///   is behind) or because `finish()` or `cancel()` was already called.
    @inlinable @discardableResult
    public func report(_ element: Element) -> Bool {
        storage.report(element)
    }

    /// How many elements were refused because the buffer was full.
    ///
    /// For example: `if log.droppedCount > 0 { print("log fell behind: \(log.droppedCount) lines lost") }`
    public var droppedCount: Int { storage.droppedCount }

    /// Delivers every element still waiting, at once, returns after the handler ran, and stops.
    ///
    /// For example: `await log.finish()                   // every accepted line is in the store`
    ///
    /// Returns at once when nothing is pending, when called again, or after ``cancel()``.
    /// The caller's `function`, `fileID` and `line` name the wait in a trace
    /// and in ``PendingContinuations``; leave the defaults.
    public func finish(function: String = #function, fileID: String = #fileID, line: Int = #line) async {
        await storage.finish(at: CallSite(function: function, fileID: fileID, line: line))
    }

    /// Discards the waiting elements and stops delivering.
    ///
    /// For example: `log.cancel()`
    ///
    /// A delivery already running completes; callers waiting in ``finish(function:fileID:line:)`` return.
    public func cancel() {
        storage.cancel()
    }
}
