import ConcurrencyToolkit
import Foundation
import Testing
@testable import FileSqueezerCore
import TestSupport

/// Parallel compression in segments, driven in-process with tiny segments
/// so that every edge (exact multiples, one byte over, empty) is a few KiB.
@Suite("Segmented compression")
struct SegmentedFileTests {
    static let segment = 4096

    func compressor(_ files: TemporaryFiles, level: Int = 6, chunk: Int = 1500) -> FileCompressor {
        FileCompressor(level: level, force: false, chunkSize: chunk, segmentSize: Self.segment, temporaryFiles: files)
    }

    /// One `SegmentedFile` for `name`, driven segment by segment by the test:
    /// a window wide enough never to wait, the temporary files and the events
    /// it reports, and deflaters with the compressor's chunk size.
    func oneFile(_ scratch: Scratch, _ name: String, chunk: Int = 1500) throws
        -> (file: SegmentedFile, files: TemporaryFiles, events: RecordedEvents, deflaters: DeflaterPool)
    {
        let files = TemporaryFiles()
        let events = RecordedEvents()
        let file = SegmentedFile(
            index: 0, plan: try plan(scratch, name), compressor: compressor(files, chunk: chunk), events: events,
            window: SegmentWindow(limit: 100), firstSegment: 0)
        return (file, files, events, DeflaterPool(level: 6, chunkSize: chunk))
    }

    func plan(_ scratch: Scratch, _ name: String) throws -> FilePlan {
        let path = scratch.path + "/" + name
        let size = try (FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? -1
        return FilePlan(source: path, relativePath: name, destination: path + ".gz", size: size)
    }

    func expectValidGzip(_ scratch: Scratch, _ name: String, equals original: Data) throws {
        let gz = scratch.path + "/" + name + ".gz"
        #expect(try runTool("/usr/bin/gzip", ["-t", gz]).status == 0, "gzip -t \(name).gz")
        let unpacked = try runTool("/usr/bin/gzip", ["-dc", gz])
        #expect(unpacked.status == 0 && unpacked.output == original, "gunzip -c \(name).gz gives back \(name)")
    }

    /// Edge sizes around the 4 KiB segment, text and random.
    static let inputs: [(name: String, data: Data)] = [
        ("empty.txt", Data()),
        ("one-byte.txt", Data("x".utf8)),
        ("under-one-segment.txt", Sample.text(segment - 1)),
        ("one-segment.txt", Sample.text(segment, seed: 3)),
        ("three-segments.txt", Sample.text(3 * segment, seed: 4)),
        ("three-segments-and-a-byte.txt", Sample.text(3 * segment + 1, seed: 5)),
        ("three-segments.bin", Sample.random(3 * segment, seed: 6)),
        ("three-segments-and-a-byte.bin", Sample.random(3 * segment + 1, seed: 7)),
        ("many-segments.txt", Sample.text(50 * segment + 123, seed: 8)),
    ]

    @Test("sizes around the segment size give gzip that the system gzip accepts and restores",
          arguments: [DeflatePlacement.lanes, .pool])
    func edgeSizes(_ placement: DeflatePlacement) async throws {
        let scratch = try Scratch()
        for input in Self.inputs { try scratch.file(input.name, input.data) }
        let files = TemporaryFiles()
        let compressor = compressor(files)
        let plans = try Self.inputs.map { try plan(scratch, $0.name) }
        let events = RecordedEvents()
        let jobs = 3
        let window = await ParallelStrategy(compressor: compressor, jobs: jobs, placement: placement)
            .run(plans, order: Array(plans.indices), events: events)

        #expect(window.peakOutstanding <= ParallelStrategy.windowSize(jobs: jobs))
        #expect(window.peakOutputs <= ParallelStrategy.windowSize(jobs: jobs))
        #expect(window.outputs.live == 0)
        #expect(files.current.isEmpty)
        for (index, input) in Self.inputs.enumerated() {
            let outcomes = events.outcomes(of: index)
            #expect(outcomes.count == 1, "\(input.name) reported once")
            #expect(outcomes.first?.status == .compressed, "\(input.name): \(outcomes.first?.reason ?? "")")
            try expectValidGzip(scratch, input.name, equals: input.data)
            let size = try Data(contentsOf: URL(fileURLWithPath: plans[index].destination)).count
            #expect(outcomes.first?.bytesOut == Int64(size))
            // Progress: one step per segment, chained, ending at the size; a
            // one-segment file none, all its bytes counted with its outcome.
            let steps = events.progress(of: index)
            let segments = compressor.segmentCount(forSize: Int64(input.data.count))
            #expect(segments == max(1, (input.data.count + Self.segment - 1) / Self.segment))
            if segments == 1 {
                #expect(steps.isEmpty, "\(input.name): \(steps)")
                #expect(events.unread(of: index) == [Int64(input.data.count)], "\(input.name)")
                continue
            }
            #expect(steps.count == segments, "\(input.name): \(steps)")
            #expect(zip(steps, steps.dropFirst()).allSatisfy { $0.total == $1.previous && $0.total < $1.total })
            #expect(steps.first?.previous == 0)
            #expect(steps.last?.total == Int64(input.data.count))
            #expect(events.unread(of: index) == [0], "\(input.name)")
        }
        #expect(try scratch.listing().count == 2 * Self.inputs.count, "no temporary files left")
    }

    @Test("segments finishing last-first still make one valid member; progress waits for segment 0")
    func reverseOrder() throws {
        let scratch = try Scratch()
        let data = Sample.text(5 * Self.segment + 77, seed: 9)
        try scratch.file("a.txt", data)
        let (file, _, events, deflaters) = try oneFile(scratch, "a.txt")
        #expect(file.segmentCount == 6)
        for segment in (1..<file.segmentCount).reversed() {
            file.compressSegment(segment, deflaters: deflaters, isCancelled: { false })
        }
        #expect(!events.anyProgress, "nothing can be written before segment 0")
        file.compressSegment(0, deflaters: deflaters, isCancelled: { false })
        #expect(events.progress(of: 0).map(\.total) == [1, 2, 3, 4, 5].map { Int64($0 * Self.segment) } + [Int64(data.count)])
        #expect(events.outcomes(of: 0).map(\.status) == [.compressed])
        try expectValidGzip(scratch, "a.txt", equals: data)
    }

    @Test("each output is freed before its window slot: never more compressed outputs than the window")
    func outputsWithinWindow() throws {
        let scratch = try Scratch()
        let data = Sample.text(8 * Self.segment + 5, seed: 13)
        try scratch.file("a.txt", data)
        let limit = 3
        let window = SegmentWindow(limit: limit)
        let deflaters = DeflaterPool(level: 6, chunkSize: 1500)
        let events = HookedEvents()
        let file = SegmentedFile(
            index: 0, plan: try plan(scratch, "a.txt"), compressor: compressor(TemporaryFiles()), events: events,
            window: window, firstSegment: 0)
        #expect(file.segmentCount == 9)
        // Another worker: as soon as a write releases a slot, start every
        // segment the window admits, while the drainer is still in its run.
        let next = Locked(0)
        let startAdmitted: @Sendable () -> Void = {
            while let segment = next.withLock({ next -> Int? in
                guard next < file.segmentCount, window.tryEnter(next) else { return nil }
                defer { next += 1 }
                return next
            }) {
                file.compressSegment(segment, deflaters: deflaters, isCancelled: { false })
            }
        }
        events.onProgress(startAdmitted)
        // Segments 0, 1, 2 fill the window; 1 and 2 finish first and wait for 0,
        // whose job then writes all three, starting 3 and 4 as slots free up.
        for segment in 0..<limit { #expect(window.tryEnter(segment)) }
        next.withLock { $0 = limit }
        file.compressSegment(2, deflaters: deflaters, isCancelled: { false })
        file.compressSegment(1, deflaters: deflaters, isCancelled: { false })
        file.compressSegment(0, deflaters: deflaters, isCancelled: { false })

        #expect(events.recorded.outcomes(of: 0).map(\.status) == [.compressed])
        try expectValidGzip(scratch, "a.txt", equals: data)
        #expect(window.peakOutstanding <= limit)
        // Holding the whole run (and the depositing job's own result) until
        // the drain ended let up to 2·limit − 1 outputs exist.
        #expect(window.peakOutputs <= limit, "outputs alive at once: \(window.peakOutputs)")
        #expect(window.outputs.live == 0)
    }

    @Test("a file that shrinks after its first segment fails naming the change, and leaves nothing")
    func shrinksMidFile() throws {
        let scratch = try Scratch()
        let path = try scratch.file("a.txt", Sample.text(4 * Self.segment))
        let (file, files, events, deflaters) = try oneFile(scratch, "a.txt")
        file.compressSegment(0, deflaters: deflaters, isCancelled: { false })
        #expect(files.current.count == 1, "the temporary file exists mid-file")
        #expect(truncate(path, off_t(Self.segment + 10)) == 0)
        for segment in 1..<file.segmentCount {
            file.compressSegment(segment, deflaters: deflaters, isCancelled: { false })
        }
        let outcome = try #require(events.outcomes(of: 0).first)
        #expect(outcome.status == .failed)
        #expect(outcome.reason == "the file changed size during the run (\(4 * Self.segment) bytes at the start, \(Self.segment + 10) now); its .gz was not kept")
        #expect(files.current.isEmpty)
        #expect(try scratch.listing() == ["a.txt"])
    }

    @Test("a file that grows before its last segment is read fails at the end, and leaves nothing")
    func growsMidFile() throws {
        let scratch = try Scratch()
        let path = try scratch.file("a.txt", Sample.text(3 * Self.segment))
        let (file, files, events, deflaters) = try oneFile(scratch, "a.txt")
        file.compressSegment(0, deflaters: deflaters, isCancelled: { false })
        file.compressSegment(1, deflaters: deflaters, isCancelled: { false })
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("more".utf8))
        try handle.close()
        file.compressSegment(2, deflaters: deflaters, isCancelled: { false })
        let outcome = try #require(events.outcomes(of: 0).first)
        #expect(outcome.status == .failed)
        #expect(outcome.reason?.contains("(\(3 * Self.segment) bytes at the start, \(3 * Self.segment + 4) now)") == true)
        #expect(files.current.isEmpty)
        #expect(try scratch.listing() == ["a.txt"])
    }

    @Test("a failing segment stops its running siblings at their next chunk; they are skipped, the failure is the outcome")
    func failureStopsRunningSiblings() throws {
        let scratch = try Scratch()
        let path = try scratch.file("a.txt", Sample.text(4 * Self.segment))
        let (file, files, events, deflaters) = try oneFile(scratch, "a.txt", chunk: 500)
        let shortened = 3 * Self.segment - 100
        var polls = 0
        // Segment 0 (9 chunks of 500 bytes) is running when segment 3 fails:
        // the file shrank under it. Poll 1 is before segment 0 opens the file,
        // poll 2 before its first chunk: the failure lands during that poll,
        // so segment 0 stops right there instead of deflating all 9 chunks.
        file.compressSegment(0, deflaters: deflaters) {
            polls += 1
            if polls == 2 {
                #expect(truncate(path, off_t(shortened)) == 0)
                file.compressSegment(3, deflaters: deflaters, isCancelled: { false })
            }
            return false
        }
        #expect(polls == 2, "segment 0 stopped at the failure, not after all 9 chunks")
        file.compressSegment(1, deflaters: deflaters, isCancelled: { false })
        file.compressSegment(2, deflaters: deflaters, isCancelled: { false })
        let outcomes = events.outcomes(of: 0)
        #expect(outcomes.map(\.status) == [.failed], "stopped siblings do not make the file cancelled")
        #expect(outcomes.first?.reason == CompressionError.changedSize(expected: Int64(4 * Self.segment), actual: Int64(shortened)).description)
        #expect(files.current.isEmpty)
        #expect(try scratch.listing() == ["a.txt"])
    }

    @Test("a segment cancelled mid-file stops the file: outcome cancelled, no temporary file, no .gz")
    func cancelledMidFile() throws {
        let scratch = try Scratch()
        try scratch.file("a.txt", Sample.text(4 * Self.segment))
        let (file, files, events, deflaters) = try oneFile(scratch, "a.txt")
        file.compressSegment(0, deflaters: deflaters, isCancelled: { false })
        var polls = 0
        file.compressSegment(1, deflaters: deflaters) {
            polls += 1
            return polls > 1  // cancelled after its first chunk
        }
        #expect(events.outcomes(of: 0).isEmpty, "segments 2 and 3 are still owed")
        file.compressSegment(2, deflaters: deflaters, isCancelled: { true })
        file.segmentCancelled(3)
        #expect(events.outcomes(of: 0).map(\.status) == [.cancelled])
        #expect(files.current.isEmpty)
        #expect(try scratch.listing() == ["a.txt"])
    }
}
