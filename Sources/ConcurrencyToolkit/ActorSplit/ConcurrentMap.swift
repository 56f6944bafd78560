extension Sequence where Element: Sendable {
    /// Transforms every element in parallel, at most `maxConcurrency` at a
    /// time, and returns the results in the order of the input.
    ///
    /// ```swift
    /// @MainActor func squeezeAll(_ files: [File]) async throws {
    ///     let sizes = try await files.concurrentMap(maxConcurrency: 4) { file in
    ///         try await squeeze(file)      // runs off the main actor
    ///     }
    ///     model.totalSize = sizes.reduce(0, +)
    /// }
    /// ```
    ///
    /// The structured replacement for `for file in files { Task.detached { ... } }`:
    /// the number of tasks alive is bounded, results keep their order, and
    /// nothing outlives the call.
    ///
    /// - `transform` never runs on the caller's actor, even when called from
    ///   the main actor: it is `@concurrent`, and its calls run in at most
    ///   `maxConcurrency` child tasks, each of which takes the next element
    ///   when its call returns (as a loop over Dispatch workers does), so an
    ///   element costs a call, not a task. (A closure you explicitly mark
    ///   `@MainActor` still hops there, which defeats the purpose.)
    /// - Elements are pulled from the sequence lazily, one per finished
    ///   call, so at most `maxConcurrency` elements are in flight.
    /// - **Errors:** the first error thrown (first in time, not in input
    ///   order) cancels every running call, starts no further one, and is
    ///   rethrown once all running calls returned.
    /// - **Cancellation:** if the calling task is cancelled, the running and
    ///   remaining calls run in a cancelled task; a `transform` that checks
    ///   (`try Task.checkCancellation()`) ends the map with its
    ///   `CancellationError`. One that does not check runs to completion.
    /// - **Tracing:** inside ``withTraceRecording(isolation:_:)`` each call is
    ///   recorded as a child with its element's index, and the caller's wait
    ///   for all of them as an async span named after the caller's line
    ///   (`concurrentMap at App/Squeeze.swift:12`).
    ///
    /// - Parameters:
    ///   - maxConcurrency: The most calls of `transform` running at once; at
    ///     least 1. Defaults to the number of active processors.
    ///   - fileID: The calling file, for the trace; leave the default.
    ///   - line: The calling line, for the trace; leave the default.
    ///   - transform: Called once per element, concurrently with other calls.
    /// - Returns: `transform`'s results, in input order.
    /// - Precondition: `maxConcurrency >= 1`. A smaller value stops the
    ///   process, in release builds too, with a message naming the value.
    @concurrent
    public func concurrentMap<Result: Sendable, Failure: Error>(
        maxConcurrency: Int = activeProcessorCount,
        fileID: String = #fileID, line: Int = #line,
        _ transform: @escaping @Sendable @concurrent (Element) async throws(Failure) -> Result
    ) async throws(Failure) -> [Result] {
        checkPrecondition(
            maxConcurrency >= 1,
            "concurrentMap or concurrentForEach (maxConcurrency: \(maxConcurrency)): maxConcurrency must be at least 1 (the most calls running at once)")
        // The caller's wait, named after the caller's line; ends before the results are returned.
        let wait = Instrumentation.begin(.asyncSpanStarted(name: "concurrentMap at \(fileID):\(line)"))
        defer { wait?.end(.spanFinished) }
        return try await runWorkers(maxConcurrency: maxConcurrency, collects: true, transform)
    }

    /// Runs `body` for every element in parallel, at most `maxConcurrency` at a time.
    ///
    /// ```swift
    /// try await files.concurrentForEach(maxConcurrency: 4) { file in
    ///     try await squeeze(file)
    ///     perFile.report(file.size, for: file.path)
    /// }
    /// ```
    ///
    /// Same rules as ``concurrentMap(maxConcurrency:fileID:line:_:)``: `body` never runs on
    /// the caller's actor, the first error cancels the rest and is rethrown,
    /// and the call returns only when every started `body` has returned. The
    /// caller's `fileID` and `line` name its wait in a trace.
    ///
    /// - Precondition: `maxConcurrency >= 1`. A smaller value stops the
    ///   process, in release builds too, with a message naming the value.
    @concurrent
    public func concurrentForEach<Failure: Error>(
        maxConcurrency: Int = activeProcessorCount,
        fileID: String = #fileID, line: Int = #line,
        _ body: @escaping @Sendable @concurrent (Element) async throws(Failure) -> Void
    ) async throws(Failure) {
        checkPrecondition(
            maxConcurrency >= 1,
            "concurrentMap or concurrentForEach (maxConcurrency: \(maxConcurrency)): maxConcurrency must be at least 1 (the most calls running at once)")
        let wait = Instrumentation.begin(.asyncSpanStarted(name: "concurrentMap at \(fileID):\(line)"))
        defer { wait?.end(.spanFinished) }
        _ = try await runWorkers(maxConcurrency: maxConcurrency, collects: false, body)
    }

    /// Up to `maxConcurrency` child tasks, each calling `transform` on the
    /// next element until none is left. The first error stops the feed (no
    /// further call starts) and is rethrown once every worker returned.
    /// - Returns: The results in input order when `collects`, else empty.
    private func runWorkers<Result: Sendable, Failure: Error>(
        maxConcurrency: Int, collects: Bool,
        _ transform: @escaping @Sendable @concurrent (Element) async throws(Failure) -> Result
    ) async throws(Failure) -> [Result] {
        // Moved to the feed, which touches it only under its lock, one
        // worker at a time (a single task iterating across suspensions hops
        // threads too); the sequence itself is not used again here.
        nonisolated(unsafe) let iterator = makeIterator()
        let feed = ElementFeed(iterator)
        do {
            return try await withThrowingTaskGroup(of: [(Int, Result)].self) { group in
                var workers = 0
                while workers < maxConcurrency, let first = feed.next() {
                    workers += 1
                    group.addTask {
                        var done: [(Int, Result)] = []
                        var item: (index: Int, element: Element)? = first
                        while let (index, element) = item {
                            // Ends before the worker takes the next element.
                            let child = Instrumentation.begin(.childStarted(index: index))
                            do {
                                let result = try await transform(element)
                                if collects { done.append((index, result)) }
                            } catch {
                                child?.end(.childFinished)
                                feed.stop()
                                throw error
                            }
                            child?.end(.childFinished)
                            item = feed.next()
                        }
                        return done
                    }
                }
                guard collects else {
                    try await group.waitForAll()
                    return []
                }
                var results = [Result?](repeating: nil, count: 0)
                while let done = try await group.next() {
                    for (index, result) in done {
                        if index >= results.count { results.append(contentsOf: repeatElement(nil, count: index + 1 - results.count)) }
                        results[index] = result
                    }
                }
                return results.map { $0! }
            }
        } catch {
            // Only `transform` throws into the group, so every error is a `Failure`.
            throw error as! Failure
        }
    }
}

/// The sequence's iterator, shared by the workers of one `concurrentMap`:
/// each takes the next element and its index under the lock, until the
/// sequence ends or a worker failed.
private final class ElementFeed<Element: Sendable>: Sendable {
    private struct State {
        /// The iterator's `next()`; generic over the element only, so a
        /// worker task captures no iterator type.
        var pull: () -> Element?
        var handedOut = 0
        var stopped = false
    }

    // The iterator is only touched under the lock, one worker at a time,
    // as a single task would drive it (across threads too).
    private let state: Lock<State>

    init<Iterator: IteratorProtocol>(_ iterator: sending Iterator) where Iterator.Element == Element {
        var iterator = iterator
        state = Lock(State(pull: { iterator.next() }))
    }

    func next() -> (index: Int, element: Element)? {
        state.withLock { state in
            guard !state.stopped, let element = state.pull() else { return nil }
            defer { state.handedOut += 1 }
            return (state.handedOut, element)
        }
    }

    func stop() { state.withLock { $0.stopped = true } }
}
