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
    ///   the main actor: it is `@concurrent`, and each call runs in its own
    ///   child task. (A closure you explicitly mark `@MainActor` still hops
    ///   there, which defeats the purpose.)
    /// - Elements are pulled from the sequence lazily, one per finished
    ///   child, so at most `maxConcurrency` elements are in flight.
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
        do {
            return try await withThrowingTaskGroup(of: (Int, Result).self) { group in
                var iterator = makeIterator()
                var results: [Result?] = []
                results.reserveCapacity(underestimatedCount)

                func startNext() -> Bool {
                    guard let element = iterator.next() else { return false }
                    let index = results.count
                    results.append(nil)
                    group.addTask {
                        // Ends before `group.next()` hands the result to the caller.
                        let child = Instrumentation.begin(.childStarted(index: index))
                        defer { child?.end(.childFinished) }
                        return (index, try await transform(element))
                    }
                    return true
                }

                while results.count < maxConcurrency, startNext() {}
                // `next()` rethrows the first child error; leaving the group
                // body then cancels and awaits the other children.
                while let (index, result) = try await group.next() {
                    results[index] = result
                    _ = startNext()
                }
                return results.map { $0! }
            }
        } catch {
            // Only `transform` throws into the group, so every error is a `Failure`.
            throw error as! Failure
        }
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
        // An array of `Void` holds no element storage; one code path is worth more.
        _ = try await concurrentMap(maxConcurrency: maxConcurrency, fileID: fileID, line: line, body)
    }
}
