import ConcurrencyToolkit

/// Compresses one file where the caller runs, reports its progress and
/// outcome through `channels`, and turns every ending — success, failure,
/// cancellation — into a ``FileOutcome``.
func compressWholeFile(
    _ index: Int, _ plan: FilePlan, with compressor: FileCompressor, channels: RunChannels,
    isCancelled: () -> Bool
) -> FileOutcome {
    let start = ContinuousClock.now
    var read: Int64 = 0
    var bytesOut: Int64 = 0
    var failure: String?
    var cancelled = false
    do {
        // A lane in `--trace` timelines; one branch when not recording.
        bytesOut = try span("compress \(plan.relativePath)") {
            try compressor.compress(plan, isCancelled: isCancelled) { total in
                channels.progress(file: index, total: total, previous: read)
                read = total
            }
        }
    } catch is CancellationError {
        cancelled = true
    } catch {
        failure = String(describing: error)
    }
    // bytesRead: all of it; a pseudo-file's may differ from its planned size.
    let outcome = FileOutcome(
        plan, failure: failure, cancelled: cancelled, bytesRead: read, bytesOut: bytesOut,
        busy: ContinuousClock.now - start)
    channels.finished(file: index, outcome: outcome, unread: plan.size - read)
    return outcome
}
