@testable import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Testing
import TestSupport

/// After an async `main`, Linux libdispatch drains the main queue on any
/// worker thread. A main-actor stall read from memory used to be pinned on
/// the thread that ran the last *probe*, so once the main actor had run on
/// two threads, its culprit landed in no report (issue 39, item 1: 13 of 40
/// reports had no backtrace). Now the blocked thread's own stack says it
/// drains the main queue.
@Suite struct MainActorOnManyThreadsTests {
    #if os(macOS) || os(Linux)  // exit tests: Apple's other platforms have none
    #if os(Linux)  // stacks are taken on Linux only
    @Test func everyBlockAfterHopsFromManyThreadsNamesTheCulprit() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let threads = Collected<UInt64>()
                let (_, stalls) = await withConcurrencyStallsRecorded(threshold: .milliseconds(200)) {
                    for _ in 0..<3 {
                        await hopToTheMainActorFromManyTasks(noting: threads)
                        await MainActor.run { blockTheMainActorFor700ms() }
                        try? await Task.sleep(for: .milliseconds(300))  // the stall ends: probes run
                    }
                }
                writeStallLines(stalls)
                writeToStandardError("MAIN ACTOR THREADS\t\(Set(threads.values).count)\n")
            })
        let text = String(decoding: result.standardErrorContent, as: UTF8.self)
        let stalls = RecordedStall.parse(result.standardErrorContent)
        let main = stalls.filter { $0.kind == "mainActorBlocked" && !$0.isOngoing }
        // Each block is a stall; on a starved machine one can go unseen or
        // merge with the next (that is the detector's latency, not this
        // test's point): every report there is must name the culprit.
        #expect(!main.isEmpty, "\(stalls)\n\(text)")
        guard !isRunningUnderThreadSanitizer else { return }  // its runtime frames stop the unwinder
        for stall in main {
            #expect(stall.frames.contains { $0.contains("blockTheMainActorFor700ms()") }, "\(stall)\n\(text)")
        }
    }

    /// The rule itself: a thread asleep in a main-actor job is labelled as
    /// draining the main queue, one asleep in a pool job is not, whichever
    /// threads ran the main actor before.
    @Test func aThreadAsleepInAMainActorJobIsTheMainQueuesAndAPoolOneIsNot() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let asleep = Collected<(thread: UInt64, onMain: Bool)>()
                async let onMain: Void = MainActor.run { asleep.append((CurrentThread.id, true)); blockThread(milliseconds: 1_500) }
                async let inPool: Void = Task.detached { asleep.append((CurrentThread.id, false)); blockThread(milliseconds: 1_500) }.value
                try? await Task.sleep(for: .milliseconds(600))
                for (id, isMain) in asleep.values {
                    let capture = ThreadStacks.capture(thread: id, regions: MemoryRegions.current(), mainQueue: 42)
                    writeToStandardError("LABEL\t\(isMain ? "main" : "pool")\t\(capture?.0.queueLabel ?? 99)\n")
                }
                _ = await (onMain, inPool)
            })
        let lines = String(decoding: result.standardErrorContent, as: UTF8.self).split(separator: "\n")
        let labels = lines.filter { $0.hasPrefix("LABEL") }.map { $0.split(separator: "\t").dropFirst().joined(separator: " ") }
        #expect(labels.sorted() == ["main 42", "pool 0"], "\(lines)")
    }
    #endif
    #endif
}

/// The main actor's blocking function the report must name: long enough to
/// be caught at a 200 ms threshold however the probes fall.
@inline(never) @MainActor
func blockTheMainActorFor700ms() {
    blockThread(milliseconds: 700)
}

/// Many tasks hop onto the main actor at once, so its jobs run on more than
/// one of Dispatch's threads; each notes the thread it ran on.
func hopToTheMainActorFromManyTasks(noting threads: Collected<UInt64>) async {
    await withTaskGroup(of: Void.self) { group in
        for _ in 0..<200 {
            group.addTask {
                await MainActor.run { threads.append(CurrentThread.id) }
            }
        }
    }
}
