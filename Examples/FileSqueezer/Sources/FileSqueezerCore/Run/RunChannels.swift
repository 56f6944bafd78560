import ConcurrencyToolkit
import Synchronization

/// The only ways compression work talks to the rest of the app: synchronous
/// reports from any thread, delivered in throttled batches.
///
/// - per-file read positions → main actor, newest per file, ≤ 30 hops a second
/// - overall bytes → main actor, newest value, ≤ 30 hops a second
/// - finished files → main actor (state and display), in batches
/// - finished files → the log actor, in batches
///
/// However many files and chunks there are, the main actor is visited a
/// bounded number of times per second, and a worker never waits for it.
final class RunChannels: CompressionEvents {
    private let perFile: KeyedThrottledProgress<Int, Int64>
    private let overall: ThrottledProgress<Int64>
    private let finishedFiles: BatchingReporter<FinishedFile>
    private let logEntries: BatchingReporter<FinishedFile>
    private let bytesRead = Atomic<Int64>(0)
    /// The compression jobs' overlap: the run's parallelism.
    let meter: WorkMeter

    struct FinishedFile: Sendable {
        let index: Int
        let outcome: FileOutcome
    }

    @MainActor
    init(fileCount: Int, state: CompressionState, display: TerminalDisplay, log: SqueezeLog, meter: WorkMeter) {
        self.meter = meter
        let uiInterval = Duration.milliseconds(33)
        perFile = KeyedThrottledProgress(interval: uiInterval) { @MainActor changed in
            state.update(bytesRead: changed)
            display.refresh(state)
        }
        overall = ThrottledProgress(interval: uiInterval) { @MainActor bytes in
            state.update(overallBytes: bytes)
            display.refresh(state)
        }
        // Capacity: every file fits, so no outcome is ever dropped.
        finishedFiles = BatchingReporter(interval: uiInterval, capacity: fileCount + 1) { @MainActor batch in
            for file in batch {
                state.finish(file.index, file.outcome)
                display.fileFinished(file.outcome, state: state)
            }
        }
        // @concurrent: written in this main-actor init, the handler would
        // otherwise take the main actor's isolation (as Task { } does) and
        // pass through it on the way to the log actor.
        logEntries = BatchingReporter(interval: .milliseconds(100), capacity: fileCount + 1) { @concurrent batch in
            await log.record(batch.map { (index: $0.index, outcome: $0.outcome) })
        }
    }

    /// A file's read position moved from `previous` to `total` bytes.
    func progress(file: Int, total: Int64, previous: Int64) {
        perFile.report(total, for: file)
        overall.report(bytesRead.add(total - previous, ordering: .relaxed).newValue)
    }

    /// A file is done; `unread` bytes of it were never read (it failed early)
    /// and count as done for the overall figure all the same.
    func finished(file: Int, outcome: FileOutcome, unread: Int64) {
        if unread > 0, outcome.status != .cancelled {
            overall.report(bytesRead.add(unread, ordering: .relaxed).newValue)
        }
        finishedFiles.report(FinishedFile(index: file, outcome: outcome))
        logEntries.report(FinishedFile(index: file, outcome: outcome))
    }

    func workBegan() { meter.began() }
    func workEnded() { meter.ended() }

    /// Delivers everything still pending, then stops.
    func finish() async {
        await perFile.finish()
        await overall.finish()
        await finishedFiles.finish()
        await logEntries.finish()
    }
}
