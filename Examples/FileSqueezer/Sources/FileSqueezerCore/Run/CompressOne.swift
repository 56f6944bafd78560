/// Compresses one file where the caller runs and turns every ending —
/// success, failure, cancellation — into a ``FileOutcome``.
func compressOne(_ plan: FilePlan, with compressor: FileCompressor, progress: (Int64) -> Void) -> FileOutcome {
    let start = ContinuousClock.now
    var outcome = FileOutcome(
        path: plan.relativePath, destination: plan.destination, status: .compressed,
        reason: nil, bytesIn: plan.size, bytesOut: 0, seconds: 0)
    do {
        outcome.bytesOut = try compressor.compress(plan, isCancelled: { Task.isCancelled }, progress: progress)
    } catch is CancellationError {
        outcome.status = .cancelled
    } catch {
        outcome.status = .failed
        outcome.reason = String(describing: error)
    }
    outcome.seconds = (ContinuousClock.now - start).seconds
    return outcome
}
