/// What happened to one file.
///
/// ```swift
/// for file in report.files where file.status == .failed {
///     print("\(file.path): \(file.reason ?? "failed")")
/// }
/// ```
///
/// A `.cancelled` file left nothing behind: its temporary output was removed.
struct FileOutcome: Sendable, Codable, Equatable {
    enum Status: String, Sendable, Codable {
        case compressed, failed, cancelled
    }

    /// Path relative to the folder (as shown to the user).
    var path: String
    var destination: String
    var status: Status
    /// Why it failed; `nil` unless `status == .failed`.
    var reason: String?
    var bytesIn: Int64
    var bytesOut: Int64
    /// Time spent compressing this file, for the achieved-parallelism figure:
    /// in the parallel strategy, the time its segments took in the
    /// compression jobs, added up.
    var seconds: Double
}

extension FileOutcome {
    /// How a file's compression ended, as its outcome: failed when there is
    /// a `failure`, else cancelled when `cancelled`, else compressed. Only a
    /// compressed file counts the bytes it read and wrote; the others count
    /// their planned size in and nothing out.
    ///
    /// ```swift
    /// let outcome = FileOutcome(plan, failure: nil, cancelled: false, bytesRead: 4096, bytesOut: 1200, busy: .milliseconds(3))
    /// assert(outcome.status == .compressed && outcome.bytesOut == 1200)
    /// ```
    init(_ plan: FilePlan, failure: String?, cancelled: Bool, bytesRead: Int64, bytesOut: Int64, busy: Duration) {
        let status: Status = failure != nil ? .failed : cancelled ? .cancelled : .compressed
        self.init(
            path: plan.relativePath, destination: plan.destination, status: status,
            reason: status == .failed ? failure : nil, bytesIn: status == .compressed ? bytesRead : plan.size,
            bytesOut: status == .compressed ? bytesOut : 0, seconds: busy.seconds)
    }
}
