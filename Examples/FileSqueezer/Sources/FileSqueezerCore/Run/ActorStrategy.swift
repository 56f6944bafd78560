/// Stage 2 of the talk (`Strategy.actor`): one actor that does all the compressing.
///
/// It takes work off the main actor, but an actor runs one call at a time,
/// so however many tasks call it, files are compressed one after another.
actor ActorStrategy {
    func compress(_ index: Int, _ plan: FilePlan, with compressor: FileCompressor, channels: RunChannels) -> FileOutcome {
        compressWholeFile(index, plan, with: compressor, channels: channels) { Task.isCancelled }
    }
}
