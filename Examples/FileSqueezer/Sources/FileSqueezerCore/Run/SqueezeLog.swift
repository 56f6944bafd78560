/// The run's record of what happened to each file, kept off the main actor.
///
/// In the talk the log lived on the main actor with the UI state, so every
/// worker's log call queued behind rendering. Here it is its own actor, and
/// workers hand it entries in batches, so it is visited a few times per
/// second, not once per event.
actor SqueezeLog {
    /// One slot per planned file, made once: no dictionary to grow and no
    /// sorted copy at the end, which on 100,000 files were the largest
    /// allocations of a run.
    private var outcomes: [FileOutcome?]

    init(fileCount: Int) {
        outcomes = Array(repeating: nil, count: fileCount)
    }

    func record(_ batch: [(index: Int, outcome: FileOutcome)]) {
        for entry in batch { outcomes[entry.index] = entry.outcome }
    }

    /// Every outcome recorded, in file order; the log is empty afterwards.
    func takeAll() -> [FileOutcome] {
        defer { outcomes = [] }
        return outcomes.compactMap { $0 }
    }
}
