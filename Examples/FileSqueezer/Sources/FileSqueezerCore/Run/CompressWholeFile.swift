import ConcurrencyToolkit

/// Compresses one file where the caller runs, as one deflate stream written
/// as it is deflated, reports its progress (after every chunk) and outcome
/// to `channels`, and turns every ending — success, failure, cancellation —
/// into a ``FileOutcome``. The writer is the parallel strategy's: the file is
/// a ``SegmentedFile`` of one streamed segment.
///
/// ```swift
/// let outcome = compressWholeFile(index, plan, with: compressor, channels: channels) { Task.isCancelled }
/// ```
///
/// - Parameter isCancelled: Polled before every chunk; `true` removes the
///   temporary file and the outcome is `.cancelled`.
func compressWholeFile(
    _ index: Int, _ plan: FilePlan, with compressor: FileCompressor, channels: any CompressionEvents,
    isCancelled: () -> Bool
) -> FileOutcome {
    channels.workBegan()
    defer { channels.workEnded() }
    return SegmentedFile(streaming: index, plan: plan, compressor: compressor, events: channels)
        .compressWhole(isCancelled: isCancelled)
}
