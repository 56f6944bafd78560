/// A segmented file's bookkeeping as a pure value: events in, actions out,
/// no locks, no I/O, no clocks. ``SegmentedFile`` keeps it under its lock
/// and does what the actions say.
///
/// ```
///            startSegment: .open ──opened──▶ open ──finish──▶ closed (commit or discard)
///  notOpened ──openFailed──▶ closed (stopped)       │
///      └─────────────finish / abandon───────────────┴──────▶ closed (report once)
///  deposit(.failed / .cancelled), writeFailed: stopped (no more segments run or are written)
/// ```
///
/// A whole file is one segment that streams: ``streamed(bytes:through:)``
/// after every chunk (progress, and the bytes written ahead of its end),
/// then its rest is written as any segment's, its length counted once.
///
/// `Opened` (the open original and temporary output) and `Output` (a
/// segment's compressed bytes) are opaque here, so the tests drive this type
/// with plain values:
///
/// ```swift
/// var file = SegmentedFileStateMachine<String, String>(segmentCount: 2)
/// file.startSegment()                           // .open: the caller opens, then
/// file.opened("handles")
/// file.deposit(1, .compressed("b", crc: 2, length: 10), busy: .zero)  // true: drain
/// file.takeReadyRun()                            // nil: segment 0 is missing
/// ```
struct SegmentedFileStateMachine<Opened, Output> {
    /// What one segment's job produced.
    enum SegmentResult {
        case compressed(Output, crc: UInt32, length: Int64)
        case failed(String)
        case cancelled
        /// Not compressed: the file had already stopped.
        case skipped
    }

    enum Phase {
        case notOpened
        case open(Opened)
        case closed
    }

    /// What a segment about to run must do first.
    enum StartAction {
        /// Compress with the original already open.
        case use(Opened)
        /// Open the original and the temporary output, then report ``opened(_:)`` or ``openFailed()``.
        case open
        /// The file has stopped: the segment is ``SegmentResult/skipped``.
        case skip
    }

    /// Ready segments to write in order (the last element first), into
    /// `output` unless the file has stopped (`nil`: drop them unwritten).
    struct Run {
        var segments: [(index: Int, element: SegmentResult)]
        var output: Opened?
        /// Whether the run holds the last segment: the writer then finishes the file.
        var endsFile: Bool
    }

    /// How a segment's bytes go out: the CRC so far combined with its own,
    /// and, for the last segment, the size the trailer records.
    struct Write: Equatable {
        var crc: UInt32
        var trailerSize: Int64?
    }

    /// What finishing does with the output.
    enum FinishAction {
        /// Nothing was opened: nothing to remove. `cancelled` when no segment stopped the file.
        case nothingOpened(cancelled: Bool)
        /// The file stopped: remove the temporary output.
        case discard(Opened)
        /// Check the original's size is `bytesRead`, then move the output into place.
        case commit(Opened, bytesRead: Int64, bytesOut: Int64)
    }

    /// The file's ending, reported once.
    struct Ending: Equatable {
        var failure: String?
        var cancelled: Bool
        /// Compressed bytes kept (0 unless committed).
        var bytesOut: Int64
        var busy: Duration
        /// Original bytes written as compressed segments.
        var bytesWritten: Int64
    }

    let segmentCount: Int
    private(set) var phase = Phase.notOpened
    private var order: SegmentReorderBuffer<SegmentResult>
    /// Set by the first failure or cancellation: no more segments are compressed or written.
    private(set) var stopped = false
    private(set) var failure: (segment: Int, reason: String)?
    private(set) var cancelled = false
    private(set) var crc: UInt32 = 0
    private(set) var bytesOut: Int64 = 0
    /// Original bytes done: covered by written segments, plus what a
    /// streamed segment has deflated so far (``streamed(bytes:through:)``).
    private(set) var bytesWritten: Int64 = 0
    /// Original bytes of the segment being streamed counted in ``bytesWritten`` already.
    private(set) var streamedLength: Int64 = 0
    private(set) var busy = Duration.zero
    private(set) var finished = false

    init(segmentCount: Int) {
        self.segmentCount = segmentCount
        order = SegmentReorderBuffer(count: segmentCount)
    }

    // MARK: segments

    /// A segment is about to compress.
    mutating func startSegment() -> StartAction {
        if stopped { return .skip }
        switch phase {
        case .open(let opened): return .use(opened)
        case .closed: return .skip
        case .notOpened: return .open
        }
    }

    /// The original and the output were opened after ``StartAction/open``.
    mutating func opened(_ opened: Opened) {
        phase = .open(opened)
    }

    /// Opening failed: the file stops (the segment deposits the failure).
    mutating func openFailed() {
        phase = .closed
        stopped = true
    }

    /// A segment's result arrives, with the time its job spent on it.
    /// - Returns: Whether the caller must now drain (``takeReadyRun()`` until `nil`).
    mutating func deposit(_ segment: Int, _ result: SegmentResult, busy: Duration) -> Bool {
        self.busy += busy
        switch result {
        case .failed(let reason):
            recordFailure(segment, reason)
        case .cancelled:
            cancelled = true
            stopped = true
        case .compressed, .skipped:
            break
        }
        return order.insert(segment, result)
    }

    /// The drainer's next run, or `nil` when the next segment is missing (its turn ends).
    mutating func takeReadyRun() -> Run? {
        guard let ready = order.takeReady() else { return nil }
        let endsFile = ready.last?.index == segmentCount - 1
        var output: Opened?
        if !stopped, case .open(let opened) = phase { output = opened }
        // Reversed, so the next segment is popped off the end.
        return Run(segments: Array(ready.reversed()), output: output, endsFile: endsFile)
    }

    // MARK: writes

    /// Segment `segment` (`crc` and `length` its own) is about to be written;
    /// `nil` when the file has stopped and it must not be.
    func beginWrite(_ segment: Int, crc segmentCRC: UInt32, length: Int64) -> Write? {
        if stopped { return nil }
        let combined = segment == 0 ? segmentCRC : GzipFormat.combine(crc, segmentCRC, secondLength: length)
        // All the bytes read: the planned size, but for a one-segment pseudo-file.
        let size = bytesWritten - streamedLength + length
        return Write(crc: combined, trailerSize: segment == segmentCount - 1 ? size : nil)
    }

    /// The next segment in order streams (a whole file: its output is
    /// written as it is deflated, not handed over at its end): `bytes` more
    /// compressed bytes went out ahead of its end, and its first `length`
    /// original bytes are deflated. Its last bytes (and the trailer) are then
    /// written as any segment's, through ``beginWrite(_:crc:length:)`` and
    /// ``written(_:bytes:length:)`` with its whole length, counted once.
    /// - Returns: The progress to report.
    mutating func streamed(bytes: Int64, through length: Int64) -> (previous: Int64, total: Int64) {
        bytesOut += bytes
        let previous = bytesWritten
        bytesWritten += length - streamedLength
        streamedLength = length
        return (previous, bytesWritten)
    }

    /// The write of `segment` failed: the file stops.
    mutating func writeFailed(_ segment: Int, reason: String) {
        recordFailure(segment, reason)
    }

    /// `bytes` compressed bytes covering `length` original ones were written.
    /// - Returns: The progress to report.
    mutating func written(_ write: Write, bytes: Int64, length: Int64) -> (previous: Int64, total: Int64) {
        crc = write.crc
        bytesOut += bytes
        let previous = bytesWritten
        bytesWritten += length - streamedLength
        streamedLength = 0
        return (previous, bytesWritten)
    }

    /// Time a job spent writing.
    mutating func addBusy(_ duration: Duration) {
        busy += duration
    }

    // MARK: ending

    /// The file ends (after its last segment was written, or from the
    /// finisher); `nil` after the first call.
    mutating func finish() -> FinishAction? {
        guard !finished else { return nil }
        finished = true
        defer { phase = .closed }
        switch phase {
        case .notOpened, .closed:
            // Every segment stopped before opening it (or it was never run).
            return .nothingOpened(cancelled: !stopped)
        case .open(let opened):
            return stopped ? .discard(opened) : .commit(opened, bytesRead: bytesWritten, bytesOut: bytesOut)
        }
    }

    /// What to report after ``finish()``'s action: `commitFailure` from the
    /// check or the move, `bytesOut` what was kept, `ending` the job's time on it.
    func ending(after action: FinishAction, commitFailure: String?, bytesOut: Int64, ending: Duration) -> Ending {
        var cancelledBeforeOpen = false
        if case .nothingOpened(let cancelled) = action { cancelledBeforeOpen = cancelled }
        return Ending(
            failure: failure?.reason ?? commitFailure, cancelled: cancelledBeforeOpen || cancelled,
            bytesOut: bytesOut, busy: busy + ending, bytesWritten: bytesWritten)
    }

    /// Ends a file some segment of which was never handed over: reported
    /// cancelled. `nil` if it already ended; else the output to remove, if open.
    mutating func abandon() -> (discard: Opened?, ending: Ending)? {
        guard !finished else { return nil }
        finished = true
        cancelled = true
        defer { phase = .closed }
        var discard: Opened?
        if case .open(let opened) = phase { discard = opened }
        return (discard, Ending(failure: nil, cancelled: true, bytesOut: 0, busy: .zero, bytesWritten: bytesWritten))
    }

    /// The earliest segment's failure wins; the file stops.
    private mutating func recordFailure(_ segment: Int, _ reason: String) {
        if failure.map({ segment < $0.segment }) ?? true { failure = (segment, reason) }
        stopped = true
    }
}

extension SegmentedFileStateMachine: Sendable where Opened: Sendable, Output: Sendable {}
extension SegmentedFileStateMachine.SegmentResult: Sendable where Output: Sendable {}
extension SegmentedFileStateMachine.Phase: Sendable where Opened: Sendable {}
