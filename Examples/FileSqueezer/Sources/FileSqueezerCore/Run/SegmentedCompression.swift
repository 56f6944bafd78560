import ConcurrencyToolkit

/// Stage 3's work plan: every file cut into segments (``SegmentedFile``), and
/// every segment of the run compressed by `jobs` jobs at a time, so both
/// cores stay busy to the last segment instead of one big file finishing alone.
///
/// ```swift
/// let run = SegmentedCompression(compressor: compressor, jobs: 2, placement: .lanes)
/// await run.run(plans, order: Array(plans.indices), events: channels)
/// ```
///
/// - **Parallelism:** one `concurrentForEach(maxConcurrency: jobs)` over the
///   segments of all files, in `order` and in segment order within a file;
///   with `.lanes` each segment's deflate is a blocking job on
///   `BlockingExecutor.shared`, with `.pool` it runs in the task itself.
/// - **Memory bound:** a ``SegmentWindow`` of ``windowSize(jobs:)`` =
///   `2·jobs + 2` segments: a segment starts only when it is within that many
///   of the oldest segment not yet written. So at most `2·jobs + 2` compressed
///   segments exist at once (each at most `deflateBound(S)`, a little over `S`
///   for incompressible data), plus one ``DeflateWorkspace`` per job (zlib's
///   ~270 KiB, a read chunk of ``FileCompressor/chunkSize`` and 32 KiB):
///   peak ≈ `(2·jobs + 2)·S + jobs·(chunk + 300 KiB)` above the process's
///   floor, whatever the file sizes. With `jobs = 2`, `S` = 1 MiB and 256 KiB
///   chunks: about 7.1 MiB.
/// - **Finishing:** a split file's size check and move into place run in
///   one more task (``FinishQueue``), so a slow rename never idles a core.
/// - **Cancellation:** cancelling the calling task stops running segments at
///   their next chunk, and every later segment returns at once; each file
///   removes its temporary file and reports `.cancelled`. Only
///   `CancellationError` counts as cancellation: a segment whose job cannot
///   run for another reason (its executor was shut down) fails its file,
///   with that error as the reason.
struct SegmentedCompression: Sendable {
    let compressor: FileCompressor
    let jobs: Int
    let placement: DeflatePlacement
    /// Where `.lanes` runs the blocking work: `BlockingExecutor.shared` but in tests.
    let executor: BlockingExecutor

    init(
        compressor: FileCompressor, jobs: Int, placement: DeflatePlacement,
        executor: BlockingExecutor = .shared
    ) {
        self.compressor = compressor
        self.jobs = jobs
        self.placement = placement
        self.executor = executor
    }

    /// Segments that may be started and not yet written: two per job (one
    /// being compressed, one finished ahead of a slower neighbour) and two
    /// more, so a job rarely waits when a file ends or deflate speed varies.
    static func windowSize(jobs: Int) -> Int { 2 * jobs + 2 }

    /// One segment to compress.
    private struct Job: Sendable {
        let file: SegmentedFile
        let segment: Int
        var number: Int { file.firstSegment + segment }
    }

    /// Compresses `plans` (in `order`), reporting to `events`; returns when
    /// every file has reported its outcome.
    /// - Returns: The window, for its statistics (tests, tuning).
    @discardableResult
    func run(_ plans: [FilePlan], order: [Int], events: any CompressionEvents) async -> SegmentWindow {
        let window = SegmentWindow(limit: Self.windowSize(jobs: jobs))
        let workspaces = DeflateWorkspaces(level: compressor.level, chunkSize: compressor.chunkSize)
        let finishes = FinishQueue()
        var files: [SegmentedFile] = []
        var segments: [Job] = []
        for index in order {
            let file = SegmentedFile(
                index: index, plan: plans[index], compressor: compressor, events: events,
                window: window, firstSegment: segments.count, finishes: finishes)
            files.append(file)
            for segment in 0..<file.segmentCount { segments.append(Job(file: file, segment: segment)) }
        }

        let placement = placement
        let executor = executor
        await withTaskGroup(of: Void.self) { group in
            // Files end here, beside the compression jobs: see FinishQueue.
            group.addTask {
                while let file = await finishes.next() {
                    switch placement {
                    case .lanes:
                        // Cancelled, the job never runs; the file still ends.
                        do { try await executor.run { file.finish() } } catch { file.finish() }
                    case .pool:
                        file.finish()
                    }
                }
            }
            await segments.concurrentForEach(maxConcurrency: jobs) { job in
                // Only cancellation makes a segment "cancelled"; any other
                // error (an executor shut down) fails its file, named.
                do {
                    try await window.enter(job.number)
                } catch is CancellationError {
                    job.file.segmentCancelled(job.segment)
                    return
                } catch {
                    job.file.segmentFailed(job.segment, reason: String(describing: error))
                    return
                }
                switch placement {
                case .lanes:
                    // A blocking job on a lane thread: the cooperative pool stays
                    // free. Cancelled while queued, it never starts.
                    do {
                        try await executor.run { context in
                            job.file.compressSegment(job.segment, workspaces: workspaces) { context.isCancelled }
                        }
                    } catch is CancellationError {
                        job.file.segmentCancelled(job.segment)
                    } catch {
                        job.file.segmentFailed(job.segment, reason: String(describing: error))
                    }
                case .pool:
                    job.file.compressSegment(job.segment, workspaces: workspaces) { Task.isCancelled }
                }
            }
            finishes.close()
        }
        // Every segment was handed over above, so every file has finished;
        // this only guards that promise.
        for file in files { file.finishIfAbandoned() }
        return window
    }
}
