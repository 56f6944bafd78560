/// Like ``ThrottledProgress``, but keeps the newest value *per key* and
/// delivers all changed keys together, in one hop per interval.
///
/// ```swift
/// let perFile = KeyedThrottledProgress<String, Int>(interval: .milliseconds(50)) { @MainActor changed in
///     for (path, bytes) in changed { model.files[path]?.bytesDone = bytes }   // one hop for all files
/// }
/// try await files.concurrentForEach(maxConcurrency: 4) { file in
///     try await squeeze(file) { bytes in perFile.report(bytes, for: file.path) }
/// }
/// await perFile.finish()
/// ```
///
/// A thousand files reporting progress cost the main actor one call per
/// interval, carrying every key that changed since the last one (with its
/// newest value), instead of one task and one hop per update.
///
/// Timing, ordering, ``finish(function:fileID:line:)``, ``cancel()`` and dropping behave exactly as
/// in ``ThrottledProgress``. Memory: one pending value per key reported since
/// the last delivery, plus the batch being delivered, so at most twice the
/// number of distinct keys.
public final class KeyedThrottledProgress<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline let storage: ThrottleStorage<KeyedLatestBuffer<Key, Value>>

    /// Creates a reporter that calls `deliver` with the keys changed since the
    /// last delivery, at most once per `interval`.
    ///
    /// ```swift
    /// let downloads = KeyedThrottledProgress<URL, Double>(interval: .milliseconds(100)) { @MainActor changed in
    ///     table.update(changed)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The minimum time between two deliveries.
    ///   - clock: Measures the interval; pass a manual clock in tests.
    ///   - deliver: Receives each changed key once with its newest value. Runs
    ///     on its own isolation, never concurrently with itself.
    ///     Written in actor-isolated code (a `@MainActor` function or type, a
    ///     file whose default isolation is `MainActor`, or an actor's method
    ///     when the closure uses `self`), the closure is isolated to that
    ///     actor, as a `Task { }` closure is:
    ///     `{ changed in model.update(changed) }` needs no `@MainActor`. Written in
    ///     nonisolated code, it is nonisolated unless annotated (`{ @MainActor changed in … }`).
    /// - Precondition: `interval >= .zero`. A negative interval stops the
    ///   process, in release builds too, with a message naming the value.
    public init(
        interval: Duration, clock: some Clock<Duration> = ContinuousClock(),
        @_inheritActorContext _ deliver: @escaping @isolated(any) @Sendable ([Key: Value]) -> Void
    ) {
        storage = ThrottleStorage(
            buffer: KeyedLatestBuffer(), interval: interval, clock: ThrottleClock(clock), deliver: deliver)
    }

    deinit {
        storage.cancel()
    }

    /// Records `value` as the newest for `key`.
    ///
    /// For example: `perFile.report(bytesWritten, for: path)`
    ///
    /// Synchronous, from any thread; never waits for the handler. Ignored
    /// once ``finish(function:fileID:line:)`` or ``cancel()`` was called.
    @inlinable
    public func report(_ value: Value, for key: Key) {
        _ = storage.report((key, value))
    }

    /// Delivers every key still pending at once, returns after the handler ran, and stops.
    ///
    /// For example: `await perFile.finish()               // every file's last figure has been shown`
    ///
    /// Returns at once when nothing is pending, when called again, or after ``cancel()``.
    /// The caller's `function`, `fileID` and `line` name the wait in a trace
    /// and in ``PendingContinuations``; leave the defaults.
    public func finish(function: String = #function, fileID: String = #fileID, line: Int = #line) async {
        await storage.finish(at: CallSite(function: function, fileID: fileID, line: line))
    }

    /// Discards pending values and stops delivering.
    ///
    /// For example: `perFile.cancel()`
    ///
    /// A delivery already running completes; callers waiting in ``finish(function:fileID:line:)`` return.
    public func cancel() {
        storage.cancel()
    }
}
