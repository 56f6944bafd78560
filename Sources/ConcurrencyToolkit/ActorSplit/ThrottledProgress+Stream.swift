extension ThrottledProgress {
    /// Creates a reporter whose deliveries come out of an `AsyncStream`, for
    /// consumers that prefer `for await` over a handler.
    ///
    /// ```swift
    /// let (progress, updates) = ThrottledProgress<Int>.makeStream(interval: .milliseconds(50))
    /// Task { @MainActor in
    ///     for await bytes in updates { statusLine.text = "\(bytes) bytes" }
    /// }
    /// for chunk in chunks { progress.report(chunk.offset) }
    /// await progress.finish()              // `updates` yields the final value, then ends
    /// ```
    ///
    /// The stream keeps only the newest undelivered value
    /// (`.bufferingNewest(1)`), so a slow consumer skips values instead of
    /// accumulating them: memory stays bounded. The stream ends after
    /// `finish()` delivered the final value, after `cancel()`, or when the
    /// reporter is dropped. When the consuming task is cancelled, or the stream
    /// and every iterator of it are gone, the reporter is cancelled.
    public static func makeStream(
        of _: Value.Type = Value.self, interval: Duration, clock: some Clock<Duration> = ContinuousClock()
    ) -> (progress: ThrottledProgress<Value>, values: AsyncStream<Value>) {
        let (values, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let storage = ThrottleStorage(
            buffer: LatestValueBuffer<Value>(), interval: interval, clock: ThrottleClock(clock),
            onStop: { continuation.finish() },
            deliver: { value in continuation.yield(value) })
        // Weak: the stream must not keep the reporter's storage alive on its own.
        continuation.onTermination = { [weak storage] _ in storage?.cancel() }
        return (ThrottledProgress(storage: storage), values)
    }
}
