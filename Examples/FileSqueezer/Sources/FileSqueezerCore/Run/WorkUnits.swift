import ConcurrencyToolkit

/// What one task hands to a lane in ``ParallelStrategy``: one segment of
/// a file split in several, or a batch of whole one-segment files compressed
/// back to back in one job, so that one hop (a task, a lane job, a
/// continuation) carries many small files instead of one.
///
/// ```swift
/// try await window.enter(unit.number)
/// try await lanes.run { context in unit.compress(deflaters: deflaters) { context.isCancelled } }
/// // or, if the job never ran:
/// unit.cancelled()
/// ```
///
/// Each unit takes one slot of the run's ``SegmentWindow`` (its `number`):
/// a batch holds at most one compressed output at a time, because each of its
/// files is written and dropped before the next one starts. Exactly one of
/// ``compress(deflaters:isCancelled:)``, ``cancelled()`` and
/// ``failed(reason:)`` is called per unit; each ends every file of the unit
/// (or, for a segment, hands it over) and releases the slot.
struct WorkUnit: Sendable {
    enum Work: Sendable {
        case segment(SegmentedFile, Int)
        /// Indices into the run's plans, compressed in this order.
        case batch([Int], OneSegmentFiles)
    }

    /// The unit's slot in the window: units are numbered in order.
    let number: Int
    let work: Work
    let window: SegmentWindow
    /// Told when the unit's compression begins and ends (the run's parallelism).
    let events: any CompressionEvents

    func compress(deflaters: DeflaterPool, isCancelled: () -> Bool) {
        events.workBegan()
        defer { events.workEnded() }
        switch work {
        case .segment(let file, let segment):
            file.compressSegment(segment, deflaters: deflaters, isCancelled: isCancelled)
        case .batch(let indices, let files):
            for index in indices { files.compress(index, deflaters: deflaters, isCancelled: isCancelled) }
            window.release(number)
        }
    }

    /// The unit's job never ran because its task was cancelled first.
    func cancelled() {
        switch work {
        case .segment(let file, let segment):
            file.segmentCancelled(segment)
        case .batch(let indices, let files):
            for index in indices { files.cancelled(index) }
            window.release(number)
        }
    }

    /// The unit's job could not run for another reason than cancellation.
    func failed(reason: String) {
        switch work {
        case .segment(let file, let segment):
            file.segmentFailed(segment, reason: reason)
        case .batch(let indices, let files):
            for index in indices { files.failed(index, reason: reason) }
            window.release(number)
        }
    }
}

/// The units of a run, in `order`, made as they are taken: a split file's
/// ``SegmentedFile`` exists only from the moment its unit is reached.
///
/// A file of several segments gives one unit per segment, in segment order.
/// Consecutive one-segment files are batched (compressed by
/// ``OneSegmentFiles``, with no object per file), up to
/// ``ParallelStrategy/batchFiles`` files and
/// ``ParallelStrategy/batchBytes`` bytes (at least one file).
///
/// ```swift
/// let units = WorkUnits(plans: plans, order: order, compressor: compressor, events: events,
///                       window: window, finishes: finishes)
/// await units.concurrentForEach(maxConcurrency: jobs + 1) { unit in ... }
/// for file in units.splitFiles.all { file.finishIfAbandoned() }
/// ```
struct WorkUnits: Sequence, Sendable {
    let plans: [FilePlan]
    let order: [Int]
    let compressor: FileCompressor
    let events: any CompressionEvents
    let window: SegmentWindow
    let finishes: FinishQueue
    /// Every file of several segments made so far (few: each is at least a
    /// segment long), for the run's final guard.
    let splitFiles = SplitFiles()
    /// How every batch compresses its files.
    let oneSegmentFiles: OneSegmentFiles

    init(
        plans: [FilePlan], order: [Int], compressor: FileCompressor, events: any CompressionEvents,
        window: SegmentWindow, finishes: FinishQueue
    ) {
        self.plans = plans
        self.order = order
        self.compressor = compressor
        self.events = events
        self.window = window
        self.finishes = finishes
        oneSegmentFiles = OneSegmentFiles(plans: plans, compressor: compressor, events: events, outputs: window.outputs)
    }

    final class SplitFiles: Sendable {
        private let files = VisibleMutex<[SegmentedFile]>([])
        func append(_ file: SegmentedFile) { files.withLock { $0.append(file) } }
        var all: [SegmentedFile] { files.withLock { $0 } }
    }

    func makeIterator() -> Iterator { Iterator(units: self) }

    struct Iterator: IteratorProtocol {
        let units: WorkUnits
        private var position = 0
        private var nextNumber = 0
        /// A split file whose later segments are still to be handed out.
        private var pending: (file: SegmentedFile, segment: Int)?

        init(units: WorkUnits) { self.units = units }

        mutating func next() -> WorkUnit? {
            if let (file, segment) = pending {
                pending = segment + 1 < file.segmentCount ? (file, segment + 1) : nil
                return unit(.segment(file, segment))
            }
            guard position < units.order.count else { return nil }
            if segments(units.order[position]) > 1 {
                let file = make(units.order[position], firstSegment: nextNumber)
                position += 1
                units.splitFiles.append(file)
                pending = (file, 1)
                return unit(.segment(file, 0))
            }
            var batch: [Int] = []
            var bytes: Int64 = 0
            while position < units.order.count, batch.count < ParallelStrategy.batchFiles {
                let index = units.order[position]
                let size = units.plans[index].size
                guard segments(index) == 1, batch.isEmpty || bytes + size <= ParallelStrategy.batchBytes else { break }
                batch.append(index)
                bytes += size
                position += 1
            }
            return unit(.batch(batch, units.oneSegmentFiles))
        }

        private func segments(_ index: Int) -> Int {
            units.compressor.segmentCount(forSize: units.plans[index].size)
        }

        private func make(_ index: Int, firstSegment: Int) -> SegmentedFile {
            SegmentedFile(
                index: index, plan: units.plans[index], compressor: units.compressor, events: units.events,
                window: units.window, firstSegment: firstSegment, finishes: units.finishes)
        }

        private mutating func unit(_ work: WorkUnit.Work) -> WorkUnit {
            defer { nextNumber += 1 }
            return WorkUnit(number: nextNumber, work: work, window: units.window, events: units.events)
        }
    }
}
