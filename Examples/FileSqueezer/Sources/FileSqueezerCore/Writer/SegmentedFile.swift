import ConcurrencyToolkit

/// One file compressed into one ordinary gzip member, as segments that
/// several jobs compress at once (pigz-style, stage 3's files larger than a
/// segment) or as one streamed segment (the whole-file strategies,
/// ``init(streaming:plan:compressor:events:)``, ``compressWhole(isCancelled:)``).
/// Stage 3's one-segment files take ``OneSegmentFiles``, the same format
/// and checks without this type's bookkeeping.
///
/// ```swift
/// // Stages 1 and 2: one file, where the caller runs; its outcome is returned and reported.
/// let outcome = SegmentedFile(streaming: 0, plan: plan, compressor: compressor, events: channels)
///     .compressWhole(isCancelled: { Task.isCancelled })
///
/// // Stage 3:
/// let file = SegmentedFile(index: 0, plan: plan, compressor: compressor, events: channels,
///                          window: window, firstSegment: 0, finishes: finishes)
/// // from any number of jobs, each segment once, each after window.enter(file.firstSegment! + k):
/// file.compressSegment(k, deflaters: deflaters, isCancelled: { context.isCancelled })
/// // and in the task that owns `finishes`:
/// while let file = await finishes.next() { file.finish() }
/// ```
///
/// - **Format.** Segment `k` is the bytes `k·S ..< (k+1)·S` of the original
///   (`S` = ``FileCompressor/segmentSize``), deflated as its own raw stream
///   primed with the 32 KiB before it and ended with a sync flush (byte
///   aligned, not final); the last segment ends the deflate stream. Written in
///   order after the gzip header, with the CRC-32s combined for the trailer,
///   they are one valid member: `gzip -t` accepts it, `gunzip` restores the original.
/// - **Order and memory.** Segments finish in any order. Each one's output is
///   handed to a ``SegmentReorderBuffer``; one thread at a time writes the
///   ready run in order and releases those segments from the run's
///   ``SegmentWindow``, which bounds how many compressed segments exist at
///   once: each output is dropped before its segment is released, and no
///   job keeps a reference to its own output once it has handed it over.
/// - **Lifecycle.** The first segment to run opens the original and the
///   temporary output (``FileCompressor/begin(_:)``). Segment 0's output
///   starts with the gzip header; the last one's ends with the trailer. After
///   the last segment is written, ``finish(inJob:)``: a check that the size
///   did not change, and the move into place. A split file is queued on
///   `finishes` for that (its rename can be slow); a streamed file, or any
///   file without `finishes`, ends at once in the job that wrote it. A
///   failure (or a cancelled segment) stops the file:
///   segments already running stop at their next chunk, later ones are
///   skipped, the temporary file removed, and the outcome names the failure
///   of the earliest segment. The outcome is reported once,
///   to `events`, with ``FileOutcome/seconds`` the time compression jobs spent
///   on this file, added up: its segments (opening, reading, deflating),
///   their writes, and its ending when a job did it. The achieved
///   parallelism (their sum over the wall time) so stays at most `jobs`.
/// - **Progress.** Reported as segments are written, so it only grows.
/// - **A whole file** is one segment, read to its end, that streams: its
///   output is written whenever it holds a chunk's worth and progress is
///   reported after every chunk, so memory stays at one chunk's output
///   whatever the file's size, and the bytes are those of one deflate
///   stream. Its span (named as the file) covers it from opening to the move
///   into place, and it ends in the job that compressed it.
///
/// The bookkeeping is ``SegmentedFileStateMachine``, a pure value kept under
/// this type's lock; this type does the I/O its actions ask for.
final class SegmentedFile: Sendable {
    /// The open original and the temporary output.
    typealias Opened = (source: SourceFile, output: TemporaryOutput)
    typealias Machine = SegmentedFileStateMachine<Opened, ByteBuffer>
    /// What one segment's job produced.
    typealias SegmentResult = Machine.SegmentResult

    let index: Int
    let plan: FilePlan
    let segmentCount: Int
    /// This file's segment 0 in the window's numbering; `nil` for a streamed
    /// file, which has no window.
    let firstSegment: Int?
    let compressor: FileCompressor
    let events: any CompressionEvents
    let window: SegmentWindow?
    let finishes: FinishQueue?
    /// A whole file: one segment whose output is written as it is deflated.
    let streams: Bool
    let state: VisibleMutex<Machine>

    /// A file of the parallel strategy larger than one segment, cut into
    /// ``FileCompressor/segmentSize`` segments (a smaller one goes through
    /// ``OneSegmentFiles``).
    convenience init(
        index: Int, plan: FilePlan, compressor: FileCompressor, events: any CompressionEvents,
        window: SegmentWindow, firstSegment: Int, finishes: FinishQueue? = nil
    ) {
        precondition(compressor.segmentCount(forSize: plan.size) > 1, "a one-segment file goes through OneSegmentFiles")
        self.init(
            index: index, plan: plan, compressor: compressor, events: events, window: window,
            firstSegment: firstSegment, finishes: finishes, streams: false)
    }

    /// A file that is one segment, streamed: written as it is deflated, for
    /// the stages that compress a whole file at a time (1 and 2), with
    /// ``compressWhole(isCancelled:)``.
    ///
    /// ```swift
    /// let file = SegmentedFile(streaming: index, plan: plan, compressor: compressor, events: channels)
    /// ```
    convenience init(streaming index: Int, plan: FilePlan, compressor: FileCompressor, events: any CompressionEvents) {
        self.init(
            index: index, plan: plan, compressor: compressor, events: events, window: nil, firstSegment: nil,
            finishes: nil, streams: true)
    }

    private init(
        index: Int, plan: FilePlan, compressor: FileCompressor, events: any CompressionEvents,
        window: SegmentWindow?, firstSegment: Int?, finishes: FinishQueue?, streams: Bool
    ) {
        self.index = index
        self.plan = plan
        self.compressor = compressor
        self.events = events
        self.window = window
        self.firstSegment = firstSegment
        self.finishes = finishes
        self.streams = streams
        segmentCount = streams ? 1 : compressor.segmentCount(forSize: plan.size)
        state = VisibleMutex(Machine(segmentCount: segmentCount))
    }

    /// Compresses a whole file where the caller runs (blocking), from
    /// opening the original to the move into place, in one span named as
    /// the file (a lane in `--trace` timelines). Call once.
    /// - Parameter isCancelled: Polled before every chunk; `true` removes the
    ///   temporary file and the outcome is `.cancelled`.
    /// - Returns: The file's outcome, also reported to `events`.
    func compressWhole(isCancelled: () -> Bool) -> FileOutcome {
        precondition(streams, "compressWhole is for a file made with init(streaming:plan:compressor:events:)")
        let deflaters = DeflaterPool(level: compressor.level, chunkSize: compressor.chunkSize)
        // One segment, handed over by its only job: it drains and ends the file itself.
        let outcome = span(spanName(0)) { compressSegment(0, deflaters: deflaters, isCancelled: isCancelled) }
        guard let outcome else { preconditionFailure("a whole file ends in the job that compressed it") }
        return outcome
    }

    /// Compresses segment `segment` where the caller runs (blocking), then
    /// hands the result over; the caller may end up writing the ready
    /// segments and finishing the file. Never throws: every ending is a result.
    /// - Returns: The file's outcome if this call ended the file.
    @discardableResult
    func compressSegment(_ segment: Int, deflaters: DeflaterPool, isCancelled: () -> Bool) -> FileOutcome? {
        let start = ContinuousClock.now
        // The result goes straight into the machine (a temporary, not a
        // local): this frame must not keep its output alive while it drains,
        // or the window's bound on compressed segments would not hold.
        let elected = deposit(
            segment, result(of: segment, deflaters: deflaters, isCancelled: isCancelled),
            busy: ContinuousClock.now - start)
        return elected ? drain() : nil
    }

    /// Records a segment that never ran (its task was cancelled first).
    func segmentCancelled(_ segment: Int) {
        if deposit(segment, .cancelled, busy: .zero) { drain() }
    }

    /// Records a segment that could not run for another reason than
    /// cancellation (its executor was shut down): the file fails with `reason`.
    func segmentFailed(_ segment: Int, reason: String) {
        if deposit(segment, .failed(reason), busy: .zero) { drain() }
    }

    /// Reports the file cancelled if it never finished, which happens only if
    /// some segment was never handed over; a no-op otherwise.
    func finishIfAbandoned() {
        guard let (discard, ending) = state.withLock({ $0.abandon() }) else { return }
        discard?.output.discard()
        report(ending)
    }

    private func spanName(_ segment: Int) -> String {
        segmentCount == 1 ? "compress \(plan.relativePath)" : "compress \(plan.relativePath) \(segment + 1)/\(segmentCount)"
    }

    private func result(of segment: Int, deflaters: DeflaterPool, isCancelled: () -> Bool) -> SegmentResult {
        do {
            // A whole file's span is its caller's, around its ending too.
            if streams { return try compress(segment, deflaters: deflaters, isCancelled: isCancelled) }
            return try span(spanName(segment)) { try compress(segment, deflaters: deflaters, isCancelled: isCancelled) }
        } catch is CancellationError {
            return .cancelled
        } catch {
            return .failed(String(describing: error))
        }
    }

    private func compress(_ segment: Int, deflaters: DeflaterPool, isCancelled: () -> Bool) throws -> SegmentResult {
        if isCancelled() { throw CancellationError() }
        guard let opened = try openIfNeeded() else { return .skipped }
        let source = opened.source
        let range = compressor.segmentRange(segment, ofSize: plan.size)
        return try deflaters.withDeflater { deflater in
            // Streamed, it is written whenever it holds a chunk's worth: one
            // chunk's output (at most a little over a chunk) always fits.
            let capacity = streams ? 2 * compressor.chunkSize + 1024 : deflater.stream.bound(range.count) + 64
            let output = ByteBuffer(capacity: capacity, counted: window?.outputs)
            if segment == 0 { compressor.header(for: source).withUnsafeBytes { output.append($0) } }
            // Polled before every chunk: a sibling segment's failure (or
            // cancellation) stops this one too, instead of it reading and
            // deflating to its end for nothing. Stopped that way it is
            // skipped, not cancelled: the file's outcome is the sibling's.
            var stoppedBySibling = false
            func stop() -> Bool {
                if isCancelled() { return true }
                stoppedBySibling = state.withLock { $0.stopped }
                return stoppedBySibling
            }
            var crc: UInt32
            var length = Int64(range.count)
            do {
                if segmentCount == 1 {
                    // A whole file in one segment is read to its end, whatever
                    // its size said (pseudo-files: SourceFile.checkRead).
                    (crc, length) = try deflater.deflateToEnd(of: source, expectedSize: Int64(range.count), into: output, isCancelled: stop) { read in
                        if streams { try stream(output, to: opened.output, through: read) }
                    }
                } else {
                    crc = try deflater.deflate(
                        range, of: source, ending: segment == segmentCount - 1 ? .finish : .sync, into: output,
                        isCancelled: stop, afterChunk: { _ in })
                }
            } catch is CancellationError where stoppedBySibling {
                return .skipped
            }
            return .compressed(output, crc: crc, length: length)
        }
    }

    /// The original and the temporary output, opened by the first segment to
    /// get here (under the lock, so once); `nil` once the file stopped.
    private func openIfNeeded() throws(CompressionError) -> Opened? {
        try state.withLock { (state) throws(CompressionError) -> Opened? in
            switch state.startSegment() {
            case .skip: return nil
            case .use(let opened): return opened
            case .open:
                do throws(CompressionError) {
                    let (source, output) = try compressor.begin(plan)
                    state.opened((source, output))
                    return (source, output)
                } catch {
                    state.openFailed()
                    throw error
                }
            }
        }
    }

    /// Stores a segment's result.
    /// - Returns: Whether the caller must now ``drain()``.
    private func deposit(_ segment: Int, _ result: SegmentResult, busy: Duration) -> Bool {
        state.withLock { $0.deposit(segment, result, busy: busy) }
    }
}
