/// Records `body` as a named span on the current thread's timeline lane, when
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
/// tasks rather than on one thread's lane. Cancellation is not special: the
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

/// Records an instant on the current thread's timeline lane, when a
/// recording is active; otherwise does nothing (one branch).
///
/// ```swift
/// marker("scan done: \(files.count) files")
/// ```
public func marker(_ name: @autoclosure () -> String) {
    Instrumentation.emit(.marker(name: name()))
}
