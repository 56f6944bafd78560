/// Records `body` as a named span in the timeline row of what the current
/// thread is doing (`main`, an executor lane, or the thread itself), when
/// a recording is active; otherwise just runs it (one branch of overhead).
///
/// ```swift
/// for file in files {
///     try span("compress \(file.name)") {
///         try compressor.compress(file)
///     }
/// }
/// ```
///
/// The span ends when `body` returns or throws (the error is rethrown).
/// Spans nest: a span inside another is drawn below it.
@discardableResult
public func span<Result>(_ name: @autoclosure () -> String, _ body: () throws -> Result) rethrows -> Result {
    let token = Instrumentation.begin(.spanStarted(name: name()))
    defer { token?.end(.spanFinished) }
    return try body()
}

/// Records the asynchronous `body` as a named span, when a recording is
/// active; otherwise just runs it.
///
/// ```swift
/// let data = try await span("download \(url.lastPathComponent)") {
///     try await client.download(url)
/// }
/// ```
///
/// An async span is task time, not thread time (`body` may suspend, and
/// resume on another thread), so the timelines draw it with the waits and
/// tasks rather than in one thread's row. Cancellation is not special: the
/// span ends when `body` returns or throws.
@discardableResult
public func span<Result>(
    _ name: @autoclosure () -> String,
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws -> Result
) async rethrows -> Result {
    let token = Instrumentation.begin(.asyncSpanStarted(name: name()))
    defer { token?.end(.spanFinished) }
    return try await body()
}

/// Records an instant in the timeline row of what the current thread is
/// doing, when a recording is active; otherwise does nothing (one branch).
///
/// For example: `marker("scan done: \(files.count) files")`
public func marker(_ name: @autoclosure () -> String) {
    Instrumentation.emit(.marker(name: name()))
}
