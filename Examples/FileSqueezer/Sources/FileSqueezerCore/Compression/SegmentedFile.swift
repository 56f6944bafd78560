import ConcurrencyToolkit

/// One file compressed as segments by several jobs at once, pigz-style,
/// into one ordinary gzip member.
///
/// ```swift
/// let file = SegmentedFile(index: 0, plan: plan, compressor: compressor, events: channels,
///                          window: window, firstSegment: 0, finishes: finishes)
/// // from any number of jobs, each segment once, each after window.enter(file.firstSegment! + k)
/// // (or, with `firstSegment: nil`, inside a window slot the caller holds and releases):
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
///   did not change, and the move into place. A file of several segments is
///   queued on `finishes` for that (its rename can be slow); a one-segment
///   file, or any file without `finishes`, ends at once in the job that wrote
///   it. A failure (or a cancelled segment) stops the file:
///   segments already running stop at their next chunk, later ones are
///   skipped, the temporary file removed, and the outcome names the failure
///   of the earliest segment. The outcome is reported once,
///   to `events`, with ``FileOutcome/seconds`` the time compression jobs spent
///   on this file, added up: its segments (opening, reading, deflating),
///   their writes, and its ending when a job did it. The achieved
///   parallelism (their sum over the wall time) so stays at most `jobs`.
/// - **Progress.** Reported as segments are written, so it only grows.
///
/// The bookkeeping is ``SegmentedFileMachine``, a pure value kept under
/// this type's lock; this type does the I/O its actions ask for.
final class SegmentedFile: Sendable {
    typealias Machine = SegmentedFileMachine<(source: SourceFile, output: TemporaryOutput), ByteBuffer>
    /// What one segment's job produced.
    typealias SegmentResult = Machine.SegmentResult

    let index: Int
    let plan: FilePlan
    let segmentCount: Int
    /// This file's segment 0 in the window's numbering; `nil` when the
    /// caller holds one window slot for the whole file (a one-segment file in
    /// a batch of small files) and releases it itself.
    let firstSegment: Int?
    private let compressor: FileCompressor
    private let events: any CompressionEvents
    private let window: SegmentWindow
    private let finishes: FinishQueue?
    private let state: VisibleMutex<Machine>

    init(
        index: Int, plan: FilePlan, compressor: FileCompressor, events: any CompressionEvents,
        window: SegmentWindow, firstSegment: Int?, finishes: FinishQueue? = nil
    ) {
        self.index = index
        self.plan = plan
        self.compressor = compressor
        self.events = events
        self.window = window
        self.firstSegment = firstSegment
        self.finishes = finishes
        segmentCount = compressor.segmentCount(forSize: plan.size)
        state = VisibleMutex(Machine(segmentCount: segmentCount))
    }

    /// Compresses segment `segment` where the caller runs (blocking), then
    /// hands the result over; the caller may end up writing the ready
    /// segments and finishing the file. Never throws: every ending is a result.
    func compressSegment(_ segment: Int, deflaters: DeflaterPool, isCancelled: () -> Bool) {
        let start = ContinuousClock.now
        // The result goes straight into the machine (a temporary, not a
        // local): this frame must not keep its output alive while it drains,
        // or the window's bound on compressed segments would not hold.
        let elected = deposit(
            segment, result(of: segment, deflaters: deflaters, isCancelled: isCancelled),
            busy: ContinuousClock.now - start)
        if elected { drain() }
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
            return try span(spanName(segment)) { try compress(segment, deflaters: deflaters, isCancelled: isCancelled) }
        } catch is CancellationError {
            return .cancelled
        } catch {
            return .failed(String(describing: error))
        }
    }

    private func compress(_ segment: Int, deflaters: DeflaterPool, isCancelled: () -> Bool) throws -> SegmentResult {
        if isCancelled() { throw CancellationError() }
        guard let source = try openIfNeeded() else { return .skipped }
        let range = compressor.segmentRange(segment, ofSize: plan.size)
        return try deflaters.withDeflater { deflater in
            let output = ByteBuffer(capacity: deflater.stream.bound(range.count) + 64, counted: window.outputs)
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
                    (crc, length) = try deflater.deflateToEnd(of: source, into: output, isCancelled: stop, afterChunk: { _ in })
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

    /// The original, opened by the first segment to get here (under the
    /// lock, so once); `nil` once the file stopped.
    private func openIfNeeded() throws(CompressionError) -> SourceFile? {
        try state.withLock { (state) throws(CompressionError) -> SourceFile? in
            switch state.startSegment() {
            case .skip: return nil
            case .use(let opened): return opened.source
            case .open:
                do throws(CompressionError) {
                    let (source, output) = try compressor.begin(plan)
                    state.opened((source, output))
                    return source
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

    /// Writes ready runs until the next segment is missing (the elected drainer only).
    private func drain() {
        while drainOnce() {}
    }

    /// Writes the ready run (outside the lock), releases it from the window,
    /// and finishes the file after its last segment.
    ///
    /// Each segment's output is dropped before its window slot is released:
    /// the slot lets another segment start and allocate its output, so holding
    /// the run until the end would let up to `2·limit − 1` outputs exist.
    /// - Returns: Whether this caller is still the drainer.
    private func drainOnce() -> Bool {
        // Bound straight from the call's result, so `run` is the only
        // reference to the results: popping one drops it.
        guard var run = state.withLock({ $0.takeReadyRun() }) else { return false }
        while !run.segments.isEmpty {
            let segment = writeNext(&run.segments, to: run.output?.output)
            if let firstSegment { window.release(firstSegment + segment) }
        }
        if run.endsFile {
            // A one-segment file is small: its ending costs less than the hop.
            if let finishes, segmentCount > 1 { finishes.add(self) } else { finish(inJob: true) }
            return false
        }
        return true
    }

    /// Takes the next result off the end of `segments`, writes it if it is
    /// output and the file goes on, and drops it (on return) before the caller
    /// releases its window slot.
    /// - Returns: The segment taken.
    private func writeNext(_ segments: inout [(index: Int, element: SegmentResult)], to output: TemporaryOutput?) -> Int {
        let (segment, result) = segments.removeLast()
        if let output, case .compressed(let bytes, let crc, let length) = result {
            let start = ContinuousClock.now
            write(segment, bytes, crc: crc, length: length, to: output)
            let elapsed = ContinuousClock.now - start
            state.withLock { $0.addBusy(elapsed) }
        }
        return segment
    }

    /// Only the drainer calls this, one segment at a time in order.
    private func write(_ segment: Int, _ bytes: ByteBuffer, crc: UInt32, length: Int64, to output: TemporaryOutput) {
        guard let write = state.withLock({ $0.beginWrite(segment, crc: crc, length: length) }) else { return }
        if let size = write.trailerSize {
            GzipFormat.trailer(crc: write.crc, size: size).withUnsafeBytes { bytes.append($0) }
        }
        do {
            try output.write(bytes.bytes)
        } catch {
            state.withLock { $0.writeFailed(segment, reason: String(describing: error)) }
            return
        }
        let (previous, total) = state.withLock { $0.written(write, bytes: Int64(bytes.count), length: length) }
        events.progress(file: index, total: total, previous: previous)
    }

    /// After the last segment (which carries the trailer) is written: size
    /// check and move into place, or removal of the temporary file; then the
    /// outcome, once.
    /// Blocking; a no-op after the first call. `inJob`: called by the
    /// compression job that wrote the last segment (its time then counts in
    /// ``FileOutcome/seconds``), not by the finisher task.
    func finish(inJob: Bool = false) {
        guard let action = state.withLock({ $0.finish() }) else { return }
        let start = ContinuousClock.now
        var failure: String?
        var bytesOut: Int64 = 0
        switch action {
        case .nothingOpened:
            break
        case .discard(let opened):
            opened.output.discard()
        case .commit(let opened, let bytesRead, let written):
            do {
                try compressor.end(opened.source, opened.output, bytesRead: bytesRead)
                bytesOut = written
            } catch {
                failure = String(describing: error)
            }
        }
        let ending = inJob ? ContinuousClock.now - start : .zero
        report(state.withLock { $0.ending(after: action, commitFailure: failure, bytesOut: bytesOut, ending: ending) })
    }

    private func report(_ ending: Machine.Ending) {
        let outcome = FileOutcome(
            plan, failure: ending.failure, cancelled: ending.cancelled, bytesRead: ending.bytesWritten,
            bytesOut: ending.bytesOut, busy: ending.busy)
        events.finished(file: index, outcome: outcome, unread: plan.size - ending.bytesWritten)
    }
}
