import ConcurrencyToolkit

/// Stage 3's one-segment files, each compressed straight through by the job
/// that holds its batch (``WorkUnit``): open, deflate into one buffer,
/// one `write`, size check and move into place, outcome. The same bytes and
/// outcomes as a ``SegmentedFile`` of one segment, without its per-file
/// object, lock and reorder buffer: on 100,000 tiny files that bookkeeping
/// was a tenth of the time each one took.
///
/// ```swift
/// let files = OneSegmentFiles(plans: plans, compressor: compressor, events: channels, outputs: window.outputs)
/// for index in batch { files.compress(index, deflaters: deflaters, isCancelled: { context.isCancelled }) }
/// // or, if the batch's job never ran:
/// for index in batch { files.cancelled(index) }
/// ```
///
/// - **Format and checks** are ``SegmentedFile``'s for one segment:
///   ``FileCompressor/begin(_:)``, the header, one raw deflate stream read
///   to the file's end (``Deflater/deflateToEnd(of:expectedSize:into:isCancelled:afterChunk:)``),
///   the trailer, then ``FileCompressor/end(_:_:bytesRead:)``.
/// - **Memory.** One compressed output at a time, counted in `outputs`
///   (the run's ``SegmentWindow/outputs``) and dropped before the call returns.
/// - **Trace.** A span `compress <path>` around opening, deflating and the
///   write.
/// - **Progress.** None: each file's bytes count with its outcome
///   (`unread` is its planned size), as for any one-segment file.
/// - **Endings.** Every call reports the file's outcome to `events`, once, and
///   returns it. Cancelled before it opens anything, or while deflating,
///   it is `.cancelled`; any other error fails it, named. The temporary
///   output is removed on every path but the move into place.
struct OneSegmentFiles: Sendable {
    let plans: [FilePlan]
    let compressor: FileCompressor
    let events: any CompressionEvents
    /// Counts each file's compressed output while it exists.
    let outputs: LiveCount?

    /// Compresses file `index` where the caller runs (blocking). Never
    /// throws: every ending is an outcome.
    /// - Parameter isCancelled: Polled before opening and before every chunk.
    /// - Returns: The outcome, also reported to `events`.
    @discardableResult
    func compress(_ index: Int, deflaters: DeflaterPool, isCancelled: () -> Bool) -> FileOutcome {
        let plan = plans[index]
        let start = ContinuousClock.now
        var failure: String?
        var cancelled = false
        var sizes: (read: Int64, written: Int64) = (0, 0)
        do {
            sizes = try write(plan, deflaters: deflaters, isCancelled: isCancelled)
        } catch is CancellationError {
            cancelled = true
        } catch {
            failure = String(describing: error)
        }
        return report(
            index,
            FileOutcome(
                plan, failure: failure, cancelled: cancelled, bytesRead: sizes.read, bytesOut: sizes.written,
                busy: ContinuousClock.now - start))
    }

    /// Reports file `index` cancelled: its job never ran.
    func cancelled(_ index: Int) {
        report(index, FileOutcome(plans[index], failure: nil, cancelled: true, bytesRead: 0, bytesOut: 0, busy: .zero))
    }

    /// Reports file `index` failed with `reason`: its job could not run for
    /// another reason than cancellation (its executor was shut down).
    func failed(_ index: Int, reason: String) {
        report(index, FileOutcome(plans[index], failure: reason, cancelled: false, bytesRead: 0, bytesOut: 0, busy: .zero))
    }

    @discardableResult
    private func report(_ index: Int, _ outcome: FileOutcome) -> FileOutcome {
        events.finished(file: index, outcome: outcome, unread: plans[index].size)
        return outcome
    }

    /// The file from opening to the move into place.
    /// - Returns: The original bytes read and the compressed bytes kept.
    private func write(_ plan: FilePlan, deflaters: DeflaterPool, isCancelled: () -> Bool) throws -> (read: Int64, written: Int64) {
        let (source, output, length, written) = try span("compress \(plan.relativePath)") {
            if isCancelled() { throw CancellationError() }
            let (source, output) = try compressor.begin(plan)
            do {
                // The compressed bytes live only in this scope: they are
                // freed before the ending (its fsync under --synchronous).
                let (compressed, length) = try deflate(source, deflaters: deflaters, isCancelled: isCancelled)
                try output.write(compressed.bytes)
                return (source, output, length, Int64(compressed.count))
            } catch {
                output.discard()
                throw error
            }
        }
        // end removes the temporary output itself when it throws.
        try compressor.end(source, output, bytesRead: length)
        return (length, written)
    }

    /// The whole member: header, deflate read to the file's end (whatever
    /// its size said: pseudo-files, ``SourceFile/checkRead(_:size:)``), trailer.
    private func deflate(_ source: SourceFile, deflaters: DeflaterPool, isCancelled: () -> Bool) throws -> (ByteBuffer, Int64) {
        try deflaters.withDeflater { deflater in
            let output = ByteBuffer(capacity: deflater.stream.bound(Int(source.plan.size)) + 64, counted: outputs)
            compressor.header(for: source).withUnsafeBytes { output.append($0) }
            let (crc, length) = try deflater.deflateToEnd(
                of: source, expectedSize: source.plan.size, into: output, isCancelled: isCancelled) { _ in }
            GzipFormat.trailer(crc: crc, size: length).withUnsafeBytes { output.append($0) }
            return (output, length)
        }
    }
}
