/// Where compression reports what happened to a file; ``RunChannels`` in
/// the app, a recorder in tests. Called from any thread.
///
/// ```swift
/// struct Printer: CompressionEvents {
///     func progress(file: Int, total: Int64, previous: Int64) { print("file \(file): \(total) bytes") }
///     func finished(file: Int, outcome: FileOutcome, unread: Int64) { print(outcome.status) }
/// }
/// ```
protocol CompressionEvents: Sendable {
    /// File `file`'s bytes done moved from `previous` to `total` (never backwards).
    func progress(file: Int, total: Int64, previous: Int64)
    /// File `file` is done, once; `unread` of its bytes were never reported as progress.
    func finished(file: Int, outcome: FileOutcome, unread: Int64)
    /// A job started compressing (a whole file, a segment, a batch of small
    /// files): the run's parallelism counts the time until the matching
    /// ``workEnded()``. Nothing by default.
    func workBegan()
    /// The job that called ``workBegan()`` stopped compressing.
    func workEnded()
}

extension CompressionEvents {
    func workBegan() {}
    func workEnded() {}
}
