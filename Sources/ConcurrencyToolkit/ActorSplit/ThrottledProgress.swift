/// Hands the newest of many rapid updates to an actor, at most once per
/// interval, without ever blocking the code that reports.
///
/// ```swift
/// // Assumes `import Observation` (SwiftUI imports it) and your `compressor`.
///
/// @MainActor @Observable final class SqueezeViewModel {
///     var bytesDone = 0
/// }
///
/// let model = SqueezeViewModel()
/// let progress = ThrottledProgress<Int>(interval: .milliseconds(33)) { @MainActor bytes in
///     model.bytesDone = bytes           // runs on the main actor, ~30 times a second at most
/// }
/// compressor.onChunk = { total in progress.report(total) }   // any thread, even a C callback
/// try await compressor.run()
/// await progress.finish()              // the final total is on screen when this returns
/// ```
///
/// Instead of one `Task { @MainActor in ... }` per update (unbounded tasks, no
/// ordering between them, the main actor busy in proportion to the report
/// rate), the reporter keeps the newest value and one delivery task:
///
/// - ``report(_:)`` is synchronous, O(1), takes one short uncontended lock, and
///   creates no task and allocates nothing while a delivery is already scheduled.
/// - The handler runs on its own isolation (the main actor, any global actor,
///   or none), at most once per `interval`, always with the newest value,
///   in report order, never two at once. The first report after a quiet
///   period is delivered at once.
/// - ``finish(function:fileID:line:)`` delivers the last value (if it was not delivered yet) right
///   away, without waiting out the interval, and returns after the handler ran.
/// - Once ``finish(function:fileID:line:)`` or ``cancel()`` has been called, `report` does
///   nothing (so a producer that keeps reporting cannot delay `finish`), and
///   after they return nothing more is delivered. A delivery already
///   running when `cancel()` is called completes.
/// - Dropping the last reference without `finish()` cancels: the pending value
///   is discarded and the delivery task ends. The reporter holds `deliver`
///   strongly; capture your model weakly if the model owns the reporter.
///
/// Memory is bounded whatever the consumer does: one pending value and the one
/// being delivered.
///
/// Tracing: a reporter created inside ``withTraceRecording(isolation:_:)``
/// records each delivery there (reports come from any thread, so the
/// recording is captured at creation); one created outside records nothing.
/// The keyed and batching variants do the same.
public final class ThrottledProgress<Value: Sendable>: Sendable {
    @usableFromInline let storage: ThrottleStorage<LatestValueBuffer<Value>>

    /// Creates a reporter that calls `deliver` with the newest value at most once per `interval`.
    ///
    /// ```swift
    /// let progress = ThrottledProgress<Double>(interval: .milliseconds(100)) { @MainActor fraction in
    ///     progressBar.value = fraction
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The minimum time between two deliveries (measured from one
    ///     delivery's start to the next). `.zero` means "as fast as the handler keeps up".
    ///   - clock: Measures the interval; pass a manual clock in tests.
    ///   - deliver: Runs on its own isolation (`@MainActor`, another actor, or
    ///     nonisolated), never concurrently with itself.
    ///     Written in actor-isolated code (a `@MainActor` function or type, a
    ///     file whose default isolation is `MainActor`, or an actor's method
    ///     when the closure uses `self`), the closure is isolated to that
    ///     actor, as a `Task { }` closure is:
    ///     `{ done in model.itemsDone = done }` needs no `@MainActor`. Written in
    ///     nonisolated code, it is nonisolated unless annotated (`{ @MainActor done in … }`).
    /// - Precondition: `interval >= .zero`. A negative interval stops the
    ///   process, in release builds too, with a message naming the value.
    public init(
        interval: Duration, clock: some Clock<Duration> = ContinuousClock(),
        @_inheritActorContext _ deliver: @escaping @isolated(any) @Sendable (Value) -> Void
    ) {
        storage = ThrottleStorage(
            buffer: LatestValueBuffer(), interval: interval, clock: ThrottleClock(clock), deliver: deliver)
    }

    init(storage: ThrottleStorage<LatestValueBuffer<Value>>) {
        self.storage = storage
    }

    deinit {
        storage.cancel()
    }

    /// Records `value` as the newest; it reaches the handler within one
    /// interval unless a newer value replaces it first.
    ///
    /// For example: `deflateLoop { bytesWritten in progress.report(bytesWritten) }`
    ///
    /// Callable from any thread or task, including a C callback; never
    /// suspends and never waits for the handler. Ignored once ``finish(function:fileID:line:)`` or ``cancel()`` was called.
    @inlinable
    public func report(_ value: Value) {
        _ = storage.report(value)
    }

    /// Delivers the newest value not yet delivered, at once, and returns after
    /// the handler ran; then stops the reporter.
    ///
    /// ```swift
    /// try await squeeze(files, progress: progress)
    /// await progress.finish()
    /// showDone()                           // the display already shows 100 %
    /// ```
    ///
    /// Returns at once when nothing is pending. Calling it again, or after
    /// ``cancel()``, returns at once. It waits for the delivery even if the
    /// calling task is cancelled (a delivery is one short handler call).
    /// Misuse: awaiting `finish()` from inside the handler waits for itself
    /// and never returns.
    /// The caller's `function`, `fileID` and `line` name the wait in a trace
    /// and in ``PendingContinuations``; leave the defaults.
    public func finish(function: String = #function, fileID: String = #fileID, line: Int = #line) async {
        await storage.finish(at: CallSite(function: function, fileID: fileID, line: line))
    }

    /// Stops the reporter: the pending value, if any, is discarded, and
    /// nothing is delivered from now on.
    ///
    /// For example: `onCancel { progress.cancel() }       // the user closed the window`
    ///
    /// A delivery already running completes. Callers waiting in ``finish(function:fileID:line:)``
    /// return. Calling it twice, or after `finish()`, does nothing.
    public func cancel() {
        storage.cancel()
    }
}
