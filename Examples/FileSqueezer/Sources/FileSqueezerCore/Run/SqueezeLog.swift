/// The run's record of what happened to each file, kept off the main actor.
///
/// In the talk the log lived on the main actor with the UI state, so every
/// worker's log call queued behind rendering. Here it is its own actor, and
/// workers hand it entries in batches, so it is visited a few times per
/// second, not once per event.
actor SqueezeLog {
    /// What the report needs from every file, added up as outcomes arrive.
    struct Totals: Sendable, Equatable {
        var compressed = 0
        var failed = 0
        var cancelled = 0
        var bytesIn: Int64 = 0
        var bytesOut: Int64 = 0
        /// Compression jobs' time on files, added up.
        var busySeconds = 0.0
        /// Files with an outcome of any kind.
        var recorded = 0
    }

    private var totals = Totals()
    /// One slot per planned file when every outcome is kept, made once: no
    /// dictionary to grow and no sorted copy at the end.
    private var outcomes: [FileOutcome?]
    /// Failed files when only those are kept, with their index for the order.
    private var failures: [(index: Int, outcome: FileOutcome)] = []
    private let keepsEveryOutcome: Bool

    /// - Parameter keepsEveryOutcome: Keep each file's outcome for
    ///   ``RunReport/files`` (`--json` lists them); otherwise only failed
    ///   files' outcomes are kept and the rest only counted, so memory does
    ///   not grow with the files that succeeded.
    init(fileCount: Int, keepsEveryOutcome: Bool = true) {
        self.keepsEveryOutcome = keepsEveryOutcome
        outcomes = keepsEveryOutcome ? Array(repeating: nil, count: fileCount) : []
    }

    func record(_ batch: [(index: Int, outcome: FileOutcome)]) {
        for entry in batch {
            let outcome = entry.outcome
            totals.recorded += 1
            totals.busySeconds += outcome.seconds
            switch outcome.status {
            case .compressed:
                totals.compressed += 1
                totals.bytesIn += outcome.bytesIn
                totals.bytesOut += outcome.bytesOut
            case .failed: totals.failed += 1
            case .cancelled: totals.cancelled += 1
            }
            if keepsEveryOutcome {
                outcomes[entry.index] = outcome
            } else if outcome.status == .failed {
                failures.append(entry)
            }
        }
    }

    /// The totals and the kept outcomes, in file order; the log is empty afterwards.
    func takeAll() -> (totals: Totals, outcomes: [FileOutcome]) {
        defer {
            outcomes = []
            failures = []
        }
        if keepsEveryOutcome { return (totals, outcomes.compactMap { $0 }) }
        return (totals, failures.sorted { $0.index < $1.index }.map(\.outcome))
    }
}
