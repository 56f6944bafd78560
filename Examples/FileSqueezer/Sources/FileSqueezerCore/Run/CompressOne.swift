import ConcurrencyToolkit

/// Compresses one file where the caller runs, reports its progress and
/// outcome through `channels`, and turns every ending — success, failure,
/// cancellation — into a ``FileOutcome``.
func compressOne(
    _ index: Int, _ plan: FilePlan, with compressor: FileCompressor, channels: RunChannels,
    isCancelled: () -> Bool
) -> FileOutcome {
    let start = ContinuousClock.now
    var outcome = FileOutcome(
        path: plan.relativePath, destination: plan.destination, status: .compressed,
        reason: nil, bytesIn: plan.size, bytesOut: 0, seconds: 0)
    var read: Int64 = 0
    do {
        // A lane in `--trace` timelines; one branch when not recording.
        outcome.bytesOut = try span("compress \(plan.relativePath)") {
            try compressor.compress(plan, isCancelled: isCancelled) { total in
                channels.progress(file: index, total: total, previous: read)
                read = total
            }
        }
        outcome.bytesIn = read  // all of it: a pseudo-file's may differ from its planned size
    } catch is CancellationError {
        outcome.status = .cancelled
    } catch {
        outcome.status = .failed
        outcome.reason = String(describing: error)
    }
    outcome.seconds = (ContinuousClock.now - start).seconds
    channels.finished(file: index, outcome: outcome, unread: plan.size - read)
    return outcome
}
