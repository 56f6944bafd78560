import ConcurrencyToolkit

/// Stage 2 fixed the talk's way (`Strategy.concurrent`): the compression
/// function leaves the actor.
///
/// WWDC22's "Visualize and optimize Swift concurrency" fixes its stage 2 with
/// plain Swift: the function that compresses a file stops being
/// actor-isolated (`nonisolated` in the talk; `@concurrent` says the same
/// today, whatever isolation the caller has), one task per file runs it on
/// the cooperative pool, and the actors keep only their shared state — here
/// the main actor's `CompressionState` and the log actor, reached through
/// ``RunChannels``. No toolkit executor, no segments, no `--jobs` limit.
///
/// ```swift
/// let outcome = await ConcurrentStrategy.compress(0, plan, with: compressor, channels: channels)
/// ```
///
/// It is faster than stage 2 and keeps the work off the main actor, but it
/// runs blocking file I/O and deflate on the pool's threads (one per core),
/// so while every pool thread is inside a file nothing else that needs one
/// runs — on Linux that includes the main actor. The walkthrough measures it.
enum ConcurrentStrategy {
    /// One child task per file, all created at once: the pool's width, not
    /// `--jobs`, decides how many run.
    static func run(_ plans: [FilePlan], order: [Int], compressor: FileCompressor, channels: RunChannels) async {
        await withDiscardingTaskGroup { group in
            for index in order {
                group.addTask {
                    _ = await compress(index, plans[index], with: compressor, channels: channels)
                }
            }
        }
    }

    /// The talk's `nonisolated func compressFile`: runs on the cooperative
    /// pool whoever calls it, and blocks that pool thread for the whole file.
    @concurrent
    static func compress(
        _ index: Int, _ plan: FilePlan, with compressor: FileCompressor, channels: RunChannels
    ) async -> FileOutcome {
        compressWholeFile(index, plan, with: compressor, channels: channels) { Task.isCancelled }
    }
}
