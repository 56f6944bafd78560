import ConcurrencyToolkit

/// The writer of a ``SegmentedFile`` (every `.gz` but those of stage 3's
/// one-segment files, which ``OneSegmentFiles`` writes): the ready segments
/// in order (the gzip header in front of segment 0, the trailer after the
/// last), then the file's ending (size check and move into place, or
/// removal) and its outcome, reported once.
///
/// ```swift
/// if state.withLock({ $0.deposit(segment, result, busy: busy) }) { drain() }   // the elected drainer writes
/// while let file = await finishes.next() { file.finish() }                     // a split file ends here
/// ```
extension SegmentedFile {
    /// Writes ready runs (outside the lock) until the next segment is
    /// missing (the elected drainer only), releasing each from the window,
    /// and finishes the file after its last segment.
    ///
    /// Each segment's output is dropped before its window slot is released:
    /// the slot lets another segment start and allocate its output, so holding
    /// the run until the end would let up to `2·limit − 1` outputs exist.
    /// - Returns: The file's outcome if this drainer ended the file.
    @discardableResult
    func drain() -> FileOutcome? {
        // Bound straight from the call's result, so `run` is the only
        // reference to the results: popping one drops it.
        while var run = state.withLock({ $0.takeReadyRun() }) {
            while !run.segments.isEmpty {
                let segment = writeNext(&run.segments, to: run.output?.output)
                if let firstSegment, let window { window.release(firstSegment + segment) }
            }
            if run.endsFile {
                // A streamed file has no `finishes`: it ends in its own job.
                if let finishes {
                    finishes.add(self)
                    return nil
                }
                return finish(inJob: true)
            }
        }
        return nil
    }

    /// A streamed segment's output so far goes out once it holds a chunk's
    /// worth; progress is reported after every chunk (`read`: its original
    /// bytes deflated so far). A failed write throws: the segment fails.
    func stream(_ output: ByteBuffer, to file: TemporaryOutput, through read: Int64) throws(CompressionError) {
        var bytes: Int64 = 0
        if output.count >= compressor.chunkSize {
            try file.write(output.bytes)
            bytes = Int64(output.count)
            output.removeAll()
        }
        let (previous, total) = state.withLock { $0.streamed(bytes: bytes, through: read) }
        events.progress(file: index, total: total, previous: previous)
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
        // A streamed segment reported its progress chunk by chunk.
        if !streams { events.progress(file: index, total: total, previous: previous) }
    }

    /// After the last segment (which carries the trailer) is written: size
    /// check and move into place, or removal of the temporary file; then the
    /// outcome, once.
    /// Blocking; a no-op after the first call. `inJob`: called by the
    /// compression job that wrote the last segment (its time then counts in
    /// ``FileOutcome/seconds``), not by the finisher task.
    /// - Returns: The outcome reported, or `nil` if the file had ended already.
    @discardableResult
    func finish(inJob: Bool = false) -> FileOutcome? {
        guard let action = state.withLock({ $0.finish() }) else { return nil }
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
        return report(state.withLock { $0.ending(after: action, commitFailure: failure, bytesOut: bytesOut, ending: ending) })
    }

    @discardableResult
    func report(_ ending: Machine.Ending) -> FileOutcome {
        let outcome = FileOutcome(
            plan, failure: ending.failure, cancelled: ending.cancelled, bytesRead: ending.bytesWritten,
            bytesOut: ending.bytesOut, busy: ending.busy)
        events.finished(file: index, outcome: outcome, unread: plan.size - ending.bytesWritten)
        return outcome
    }
}
