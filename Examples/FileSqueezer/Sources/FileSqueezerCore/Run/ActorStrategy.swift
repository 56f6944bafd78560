import ConcurrencyToolkit

/// Stage 2 of the talk (`Strategy.actor`): one actor that does all the compressing.
///
/// It takes work off the main actor, but an actor runs one call at a time,
/// so however many tasks call it, files are compressed one after another.
/// Its executor measures that: with `--detect-stalls` the summary says how
/// long files waited for it and what it was doing meanwhile.
actor ActorStrategy {
    nonisolated let executor = MonitoredActorExecutor(label: "ActorStrategy")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func compress(_ index: Int, _ plan: FilePlan, with compressor: FileCompressor, channels: RunChannels) -> FileOutcome {
        compressWholeFile(index, plan, with: compressor, channels: channels) { Task.isCancelled }
    }
}
