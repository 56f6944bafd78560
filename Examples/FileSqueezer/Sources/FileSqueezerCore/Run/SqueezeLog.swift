/// The run's record of what happened to each file, kept off the main actor.
///
/// In the talk the log lived on the main actor with the UI state, so every
/// worker's log call queued behind rendering. Here it is its own actor, and
/// workers hand it entries in batches, so it is visited a few times per
/// second, not once per event.
actor SqueezeLog {
    private var outcomes: [Int: FileOutcome] = [:]

    func record(_ batch: [(index: Int, outcome: FileOutcome)]) {
        for entry in batch { outcomes[entry.index] = entry.outcome }
    }

    /// Outcomes in plan order.
    func all() -> [FileOutcome] {
        outcomes.sorted { $0.key < $1.key }.map(\.value)
    }
}
