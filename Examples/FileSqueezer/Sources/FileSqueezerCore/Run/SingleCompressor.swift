/// Stage 2 of the talk: one actor that does all the compressing.
///
/// It takes work off the main actor, but an actor runs one call at a time,
/// so however many tasks call it, files are compressed one after another.
actor SingleCompressor {
    func compress(_ index: Int, _ plan: FilePlan, with compressor: FileCompressor, feed: ProgressFeed) -> FileOutcome {
        compressOne(plan, with: compressor) { feed.report(file: index, bytesRead: $0) }
    }
}
