extension ActorContentionDetector {
    /// Waits until the contention reports that are due have reached their
    /// handlers, at most `limit`: for a program that prints a summary when
    /// its work is done, without a fixed sleep that is too short when a
    /// report is slow (the first symbolication of a holder's stack takes up
    /// to a second, longer under a sanitizer) and too long when none is due.
    ///
    /// ```swift
    /// ActorContentionDetector.start()
    /// await squeezer.run()
    /// if !(await ActorContentionDetector.waitForReports(within: .seconds(3))) {
    ///     print("(a contention report may be missing: it was not delivered within 3 s)")
    /// }
    /// print("done: every contention report that was due is in the handler's hands")
    /// ```
    ///
    /// Due are the episodes that ended before the call, and those going on
    /// that end within two looks of the watcher: these looks end an episode
    /// as soon as no job waits the threshold, without the quiet period that
    /// otherwise keeps the tail of a backlog in its episode (the work is
    /// done; no tail will come). The watcher is woken to
    /// take those two looks at once, and this returns as soon as they are
    /// done and every report of those looks was delivered (the handlers
    /// ran), or when `limit` has passed.
    ///
    /// - Returns: `true` when the due reports were delivered, or when the
    ///   detector is not running (nothing is due); `false` when `limit`
    ///   passed first, or the task was cancelled (it returns at once then).
    ///   A report that was not delivered in time still is, later.
    public static func waitForReports(
        within limit: Duration = .seconds(5),
        function: String = #function, fileID: String = #fileID, line: Int = #line
    ) async -> Bool {
        guard let watcher = ContentionDemand.shared.watcher else { return true }
        let deadline = ContinuousClock.now.advanced(by: limit)
        // Two more whole looks: the one under way may have begun before the call.
        let target = watcher.looks.load(ordering: .acquiring) + 3
        // Those looks settle: an episode quiet now ends without its quiet period.
        watcher.settleThrough.max(target, ordering: .relaxed)
        // Now, not an interval from now: each signal is one look without the wait.
        watcher.poke()
        watcher.poke()
        while watcher.looks.load(ordering: .acquiring) < target {
            guard ContinuousClock.now < deadline, !Task.isCancelled else { return false }
            try? await Task.sleep(for: .milliseconds(2))
        }
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { return false }
        do {
            // Deliveries run in order on one queue: once it reaches this, the
            // reports of those looks were symbolicated and handed over.
            try await withSafeThrowingContinuation(
                timeout: remaining, function: function, fileID: fileID, line: line
            ) { (delivered: SafeContinuation<Void, any Error>) in
                ContentionWatcher.deliveries.async { delivered.resume() }
            }
            return true
        } catch {
            return false
        }
    }
}
