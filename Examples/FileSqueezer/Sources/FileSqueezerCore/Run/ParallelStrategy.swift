import ConcurrencyToolkit

/// Stage 3's work plan: every file larger than a segment cut into segments
/// (``SegmentedFile``), the smaller ones batched (``OneSegmentFiles``), and
/// all of it compressed by `jobs` jobs at a time, so both cores stay busy
/// to the last segment instead of one big file finishing alone.
///
/// ```swift
/// let run = ParallelStrategy(compressor: compressor, jobs: 2, placement: .lanes)
/// await run.run(plans, order: Array(plans.indices), events: channels)
/// ```
///
/// - **Parallelism:** one `concurrentForEach` over the run's ``WorkUnit``s,
///   in `order` and in segment order within a file: one unit per segment of
///   a file larger than a segment, and one per batch of consecutive
///   one-segment files (up to ``batchFiles`` files and ``batchBytes``), so
///   one hop carries many small files. With `.pool`
///   each unit's deflate runs in its task, `jobs` at a time. With
///   `.lanes` it is a blocking job on an executor of exactly `jobs` lanes
///   made for the run, and `jobs + 1` tasks submit to it: one unit always
///   waits in the executor's queue, so a lane that finishes takes the next
///   one at once instead of idling through the hand-off (continuation,
///   next child task, next submission, per segment; Documentation/
///   Performance.md, "File Squeezer's stage 3", has what it bought).
/// - **Memory bound:** a ``SegmentWindow`` of ``windowSize(jobs:)`` =
///   `2·jobs + 2` units: a unit starts only when it is within that many
///   of the oldest unit not yet written. A batch holds one output at a time
///   (each file is written before the next starts), so at most `2·jobs + 2`
///   compressed outputs exist at once (each at most `deflateBound(S)`, a little over `S`
///   for incompressible data), plus one ``Deflater`` per job (zlib's
///   ~270 KiB, a read chunk of ``FileCompressor/chunkSize`` and 32 KiB):
///   peak ≈ `(2·jobs + 2)·S + jobs·(chunk + 300 KiB)` above the process's
///   floor, whatever the file sizes. With `jobs = 2`, `S` = 1 MiB and 256 KiB
///   chunks: about 7.1 MiB.
/// - **Finishing:** a split file's size check and move into place run in
///   one more task (``FinishQueue``), as blocking jobs on
///   `BlockingExecutor.shared`, not on the run's lanes: a slow rename never
///   idles a core.
/// - **Cancellation:** cancelling the calling task stops running units at
///   their next chunk, and every later unit returns at once; each file
///   removes its temporary file and reports `.cancelled`. Only
///   `CancellationError` counts as cancellation: a segment whose job cannot
///   run for another reason (its executor was shut down) fails its file,
///   with that error as the reason.
struct ParallelStrategy: Sendable {
    let compressor: FileCompressor
    let jobs: Int
    let placement: DeflatePlacement
    /// Where `.lanes` runs the segments; `nil`: an executor of width `jobs`
    /// made for each run and shut down at its end. Tests pass their own.
    let lanes: BlockingExecutor?

    init(
        compressor: FileCompressor, jobs: Int, placement: DeflatePlacement,
        lanes: BlockingExecutor? = nil
    ) {
        self.compressor = compressor
        self.jobs = jobs
        self.placement = placement
        self.lanes = lanes
    }

    /// Units that may be started and not yet written: two per job (one
    /// being compressed, one finished ahead of a slower neighbour) and two
    /// more, so a job rarely waits when a file ends or deflate speed varies.
    static func windowSize(jobs: Int) -> Int { 2 * jobs + 2 }

    /// The most one-segment files one job compresses back to back: 256
    /// tiny files are a few milliseconds of work, and each batch costs a
    /// task, a lane job and a continuation.
    static let batchFiles = 256
    /// The most bytes of originals in one batch: a batch is about as long
    /// as a quarter of a segment, so the last batches still spread over the
    /// lanes evenly.
    static let batchBytes: Int64 = 256 << 10

    /// Compresses `plans` (in `order`), reporting to `events`; returns when
    /// every file has reported its outcome.
    /// - Returns: The window, for its statistics (tests, tuning).
    @discardableResult
    func run(_ plans: [FilePlan], order: [Int], events: any CompressionEvents) async -> SegmentWindow {
        let window = SegmentWindow(limit: Self.windowSize(jobs: jobs))
        let deflaters = DeflaterPool(level: compressor.level, chunkSize: compressor.chunkSize)
        let finishes = FinishQueue()
        let units = WorkUnits(
            plans: plans, order: order, compressor: compressor, events: events, window: window,
            finishes: finishes)

        // `nil`: deflate in the tasks, on the cooperative pool.
        let lanes: BlockingExecutor? = switch placement {
        case .lanes: self.lanes ?? BlockingExecutor(width: jobs, label: "FileSqueezer.segments")
        case .pool: nil
        }
        await withTaskGroup(of: Void.self) { group in
            // Files end here, beside the compression jobs: see FinishQueue.
            group.addTask {
                while let file = await finishes.next() {
                    if lanes != nil {
                        // Cancelled, the job never runs; the file still ends.
                        do { try await BlockingExecutor.shared.run { _ = file.finish() } } catch { file.finish() }
                    } else {
                        file.finish()
                    }
                }
            }
            // On lanes, one task more than lanes keeps a unit queued.
            await units.concurrentForEach(maxConcurrency: lanes == nil ? jobs : jobs + 1) { unit in
                // Only cancellation makes a unit "cancelled"; any other
                // error (an executor shut down) fails its files, named.
                do {
                    try await window.enter(unit.number)
                } catch is CancellationError {
                    unit.cancelled()
                    return
                } catch {
                    unit.failed(reason: String(describing: error))
                    return
                }
                guard let lanes else {
                    unit.compress(deflaters: deflaters) { Task.isCancelled }
                    return
                }
                // A blocking job on a lane thread: the cooperative pool stays
                // free. Cancelled while queued, it never starts.
                do {
                    try await lanes.run { context in
                        unit.compress(deflaters: deflaters) { context.isCancelled }
                    }
                } catch is CancellationError {
                    unit.cancelled()
                } catch {
                    unit.failed(reason: String(describing: error))
                }
            }
            finishes.close()
        }
        // Every job has returned: nothing is queued, so this only retires the lanes.
        if let lanes, self.lanes == nil { await lanes.shutdown() }
        // Every unit was handed over above, so every file has finished;
        // this only guards that promise.
        for file in units.splitFiles.all { file.finishIfAbandoned() }
        return window
    }
}
