import ConcurrencyToolkit
import Foundation
import Testing
@testable import FileSqueezerCore
import TestSupport

/// How a segmented file ends when something outside it goes wrong: a
/// destination already there, a file replaced during the run, an executor
/// shut down, a run cancelled.
extension SegmentedFileTests {
    @Test("an existing .gz stops a split file without --force (left untouched); --force replaces it")
    func existingDestination() async throws {
        let scratch = try Scratch()
        let data = Sample.text(10 * Self.segment + 5, seed: 12)
        try scratch.file("a.txt", data)
        try scratch.file("a.txt.gz", Data("old".utf8))
        let files = TemporaryFiles()
        let plans = [try plan(scratch, "a.txt")]
        for force in [false, true] {
            let compressor = FileCompressor(level: 6, force: force, chunkSize: 1500, segmentSize: Self.segment, temporaryFiles: files)
            let events = RecordedEvents()
            await ParallelStrategy(compressor: compressor, jobs: 2, placement: .lanes).run(plans, order: [0], events: events)
            let outcome = try #require(events.outcomes(of: 0).first)
            if force {
                #expect(outcome.status == .compressed)
                try expectValidGzip(scratch, "a.txt", equals: data)
            } else {
                #expect(outcome.status == .failed)
                #expect(outcome.reason == "\(scratch.path)/a.txt.gz already exists; left untouched (use --force to overwrite)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: scratch.path + "/a.txt.gz")) == Data("old".utf8))
            }
            #expect(files.current.isEmpty)
            #expect(try scratch.listing() == ["a.txt", "a.txt.gz"])
        }
    }

    @Test("a split file replaced by a FIFO fails naming it; the other files complete")
    func replacedByFIFO() async throws {
        let scratch = try Scratch()
        let data = Sample.text(6 * Self.segment + 1, seed: 14)
        try scratch.file("a.txt", data)
        try scratch.file("b.txt", data)
        let files = TemporaryFiles()
        let plans = [try plan(scratch, "a.txt"), try plan(scratch, "b.txt")]
        try FileManager.default.removeItem(atPath: scratch.path + "/a.txt")
        #expect(mkfifo(scratch.path + "/a.txt", 0o644) == 0)
        // Unblocks an open() that waits for a writer (the bug), so the test fails instead of hanging.
        let fifo = scratch.path + "/a.txt"
        Thread.detachNewThread {
            sleep(3)
            let descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
            if descriptor >= 0 { close(descriptor) }
        }
        let events = RecordedEvents()
        await ParallelStrategy(compressor: compressor(files), jobs: 2, placement: .lanes)
            .run(plans, order: [0, 1], events: events)
        let failed = try #require(events.outcomes(of: 0).first)
        #expect(failed.status == .failed)
        #expect(failed.reason == CompressionError.notRegularFile.description)
        #expect(events.outcomes(of: 1).map(\.status) == [.compressed])
        try expectValidGzip(scratch, "b.txt", equals: data)
        #expect(files.current.isEmpty)
        #expect(try scratch.listing() == ["a.txt", "b.txt", "b.txt.gz"])
    }

    @Test("a segment whose job cannot run for another reason than cancellation fails its file, named, not cancelled")
    func executorShutDown() async throws {
        let scratch = try Scratch()
        try scratch.file("a.txt", Sample.text(3 * Self.segment, seed: 15))
        try scratch.file("b.txt", Sample.text(100, seed: 16))
        let files = TemporaryFiles()
        let plans = [try plan(scratch, "a.txt"), try plan(scratch, "b.txt")]
        let lanes = BlockingExecutor(width: 1, label: "squeeze-test")
        await lanes.shutdown()
        let events = RecordedEvents()
        await ParallelStrategy(compressor: compressor(files), jobs: 2, placement: .lanes, lanes: lanes)
            .run(plans, order: [0, 1], events: events)
        let reason = BlockingExecutor.ShutDownError(label: "squeeze-test", wasQueued: false).description
        for index in plans.indices {
            let outcomes = events.outcomes(of: index)
            #expect(outcomes.map(\.status) == [.failed], "\(plans[index].relativePath): \(outcomes)")
            #expect(outcomes.first?.reason == reason)
        }
        #expect(files.current.isEmpty)
        #expect(try scratch.listing() == ["a.txt", "b.txt"])
    }

    @Test("cancelling a run stops every file; each reports once and no temporary file is left",
          arguments: [DeflatePlacement.lanes, .pool])
    func cancelledRun(_ placement: DeflatePlacement) async throws {
        let scratch = try Scratch()
        let names = ["a.txt", "b.txt", "c.txt"]
        for (position, name) in names.enumerated() {
            try scratch.file(name, Sample.text(2 << 20, seed: UInt64(position)))
        }
        let files = TemporaryFiles()
        let compressor = FileCompressor(level: 9, force: false, chunkSize: 16_384, segmentSize: 65_536, temporaryFiles: files)
        let plans = try names.map { try plan(scratch, $0) }
        let hooked = HookedEvents()
        let events = hooked.recorded
        // Cancelled from the progress report itself: with `.pool` the
        // deflate jobs hold the cooperative pool, so a polling task here
        // could first run once every file was done (1 run in 6 did).
        let handle = Locked<Task<SegmentWindow, Never>?>(nil)
        hooked.onProgress { handle.value?.cancel() }
        let run = Task {
            await ParallelStrategy(compressor: compressor, jobs: 2, placement: placement)
                .run(plans, order: Array(plans.indices), events: hooked)
        }
        handle.withLock { $0 = run }
        // A report that came before the handle was set cancelled nothing.
        if events.anyProgress { run.cancel() }
        _ = await run.value

        let outcomes = names.indices.map { events.outcomes(of: $0) }
        #expect(outcomes.allSatisfy { $0.count == 1 }, "every file reports exactly once: \(outcomes)")
        #expect(outcomes.contains { $0.first?.status == .cancelled })
        #expect(outcomes.allSatisfy { [.compressed, .cancelled].contains($0.first?.status) })
        #expect(files.current.isEmpty)
        let listing = try scratch.listing()
        #expect(!listing.contains { $0.contains(".squeeze-") }, "temporary files left: \(listing)")
        for (index, name) in names.enumerated() where outcomes[index].first?.status == .compressed {
            #expect(try runTool("/usr/bin/gzip", ["-t", scratch.path + "/" + name + ".gz"]).status == 0)
        }
    }
}
