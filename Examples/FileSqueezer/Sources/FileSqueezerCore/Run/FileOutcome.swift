/// What happened to one file.
///
/// ```swift
/// for file in report.files where file.status == .failed {
///     print("\(file.path): \(file.reason ?? "failed")")
/// }
/// ```
///
/// A `.cancelled` file left nothing behind: its temporary output was removed.
public struct FileOutcome: Sendable, Codable, Equatable {
    public enum Status: String, Sendable, Codable {
        case compressed, failed, cancelled
    }

    /// Path relative to the folder (as shown to the user).
    public var path: String
    public var destination: String
    public var status: Status
    /// Why it failed; `nil` unless `status == .failed`.
    public var reason: String?
    public var bytesIn: Int64
    public var bytesOut: Int64
    /// Time spent compressing this file, for the achieved-parallelism figure:
    /// in the parallel strategy, the time its segments took in the
    /// compression jobs, added up.
    public var seconds: Double
}
