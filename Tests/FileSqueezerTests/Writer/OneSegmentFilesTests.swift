import ConcurrencyToolkit
import Foundation
import Testing
@testable import FileSqueezerCore
import TestSupport

/// Stage 3's straight-through path for one-segment files, driven file by
/// file: every ending a ``SegmentedFile`` of one segment has, with the same
/// bytes, outcomes and cleanup.
@Suite("One-segment files")
struct OneSegmentFilesTests {
    let helpers = SegmentedFileTests()

    /// The files `names` of `scratch` as one batch's plans, with what they report to.
    func files(
        _ scratch: Scratch, _ names: [String], force: Bool = false, chunk: Int = 1500
    ) throws -> (files: OneSegmentFiles, temporaries: TemporaryFiles, events: RecordedEvents, outputs: LiveCount) {
        let temporaries = TemporaryFiles()
        let events = RecordedEvents()
        let outputs = LiveCount()
        let compressor = FileCompressor(
            level: 6, force: force, chunkSize: chunk, segmentSize: SegmentedFileTests.segment, temporaryFiles: temporaries)
        let plans = try names.map { try helpers.plan(scratch, $0) }
        return (OneSegmentFiles(plans: plans, compressor: compressor, events: events, outputs: outputs), temporaries, events, outputs)
    }

    func deflaters(chunk: Int = 1500) -> DeflaterPool { DeflaterPool(level: 6, chunkSize: chunk) }

    @Test("empty, one-byte, tiny and near-segment files give valid gzip, reported once with all their bytes unread")
    func compressed() throws {
        let scratch = try Scratch()
        let inputs: [(String, Data)] = [
            ("empty.txt", Data()), ("one.txt", Data("x".utf8)), ("tiny.txt", Sample.text(200, seed: 1)),
            ("chunks.txt", Sample.text(SegmentedFileTests.segment - 1, seed: 2)),
            ("random.bin", Sample.random(SegmentedFileTests.segment, seed: 3)),
        ]
        for (name, data) in inputs { try scratch.file(name, data) }
        let (files, temporaries, events, outputs) = try files(scratch, inputs.map(\.0))
        let deflaters = deflaters()
        for index in inputs.indices {
            let outcome = files.compress(index, deflaters: deflaters, isCancelled: { false })
            let (name, data) = inputs[index]
            #expect(outcome.status == .compressed, "\(name): \(outcome.reason ?? "")")
            #expect(events.outcomes(of: index) == [outcome], "\(name): reported once, as returned")
            #expect(events.unread(of: index) == [Int64(data.count)], "\(name): its bytes count with its outcome")
            #expect(events.progress(of: index).isEmpty)
            #expect(outcome.bytesIn == Int64(data.count))
            let written = try Data(contentsOf: scratch.url.appendingPathComponent(name + ".gz"))
            #expect(outcome.bytesOut == Int64(written.count))
            try helpers.expectValidGzip(scratch, name, equals: data)
        }
        #expect(outputs.peak == 1, "one compressed output at a time")
        #expect(outputs.live == 0)
        #expect(temporaries.current.isEmpty)
    }

    @Test("the bytes are the whole-file writer's, byte for byte")
    func sameBytesAsWholeFile() throws {
        let scratch = try Scratch()
        let data = Sample.text(3000, seed: 4)
        try scratch.file("a.txt", data)
        let (files, _, _, _) = try files(scratch, ["a.txt"])
        #expect(files.compress(0, deflaters: deflaters(), isCancelled: { false }).status == .compressed)
        let ours = try Data(contentsOf: scratch.url.appendingPathComponent("a.txt.gz"))
        try FileManager.default.removeItem(at: scratch.url.appendingPathComponent("a.txt.gz"))
        let whole = compressWholeFile(
            0, try helpers.plan(scratch, "a.txt"), with: files.compressor, channels: RecordedEvents(),
            isCancelled: { false })
        #expect(whole.status == .compressed)
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("a.txt.gz")) == ours)
    }

    @Test("an existing .gz fails the file by name, untouched, and the next file of the batch still compresses")
    func destinationExists() throws {
        let scratch = try Scratch()
        try scratch.file("a.txt", Sample.text(100))
        try scratch.file("a.txt.gz", Data("old".utf8))
        try scratch.file("b.txt", Sample.text(100, seed: 5))
        let (files, temporaries, events, _) = try files(scratch, ["a.txt", "b.txt"])
        let deflaters = deflaters()
        let failed = files.compress(0, deflaters: deflaters, isCancelled: { false })
        #expect(failed.status == .failed)
        #expect(failed.reason == CompressionError.destinationExists(scratch.path + "/a.txt.gz").description)
        #expect(events.unread(of: 0) == [100])
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("a.txt.gz")) == Data("old".utf8))
        #expect(files.compress(1, deflaters: deflaters, isCancelled: { false }).status == .compressed)
        #expect(temporaries.current.isEmpty)
        #expect(try scratch.listing() == ["a.txt", "a.txt.gz", "b.txt", "b.txt.gz"])
    }

    @Test("cancelled before it starts, a file opens nothing; cancelled mid-deflate, its temporary output is removed")
    func cancelled() throws {
        let scratch = try Scratch()
        try scratch.file("a.txt", Sample.text(4000, seed: 6))
        let (files, temporaries, events, outputs) = try files(scratch, ["a.txt"], chunk: 500)
        let before = files.compress(0, deflaters: deflaters(chunk: 500), isCancelled: { true })
        #expect(before.status == .cancelled)
        #expect(outputs.peak == 0 && temporaries.current.isEmpty, "nothing was opened or allocated")

        // Polled before opening, then before each 500-byte chunk: stops after two chunks.
        var polls = 0
        let mid = files.compress(0, deflaters: deflaters(chunk: 500)) {
            polls += 1
            if polls == 3 { #expect(temporaries.current.count == 1, "the temporary output exists mid-file") }
            return polls == 4
        }
        #expect(mid.status == .cancelled)
        #expect(polls == 4)
        #expect(events.outcomes(of: 0).map(\.status) == [.cancelled, .cancelled])
        #expect(temporaries.current.isEmpty)
        #expect(try scratch.listing() == ["a.txt"])
    }

    @Test("a file that changed size after discovery, or vanished, fails named and leaves nothing")
    func changedOrVanished() throws {
        let scratch = try Scratch()
        let path = try scratch.file("a.txt", Sample.text(1000))
        try scratch.file("b.txt", Sample.text(1000))
        let (files, temporaries, events, _) = try files(scratch, ["a.txt", "b.txt"])
        #expect(truncate(path, 10) == 0)
        try FileManager.default.removeItem(atPath: scratch.path + "/b.txt")
        let deflaters = deflaters()
        let changed = files.compress(0, deflaters: deflaters, isCancelled: { false })
        #expect(changed.reason == CompressionError.changedSize(expected: 1000, actual: 10).description)
        let vanished = files.compress(1, deflaters: deflaters, isCancelled: { false })
        #expect(vanished.reason == CompressionError.vanished.description)
        #expect(events.unread(of: 0) == [1000] && events.unread(of: 1) == [1000])
        #expect(temporaries.current.isEmpty)
        #expect(try scratch.listing() == ["a.txt"])
    }

    @Test("a file that grows while it is read fails at its end, its temporary output removed")
    func growsWhileRead() throws {
        let scratch = try Scratch()
        let path = try scratch.file("a.txt", Sample.text(3000, seed: 7))
        let (files, temporaries, _, _) = try files(scratch, ["a.txt"], chunk: 500)
        var polls = 0
        let outcome = files.compress(0, deflaters: deflaters(chunk: 500)) {
            polls += 1
            if polls == 7 {
                #expect(temporaries.current.count == 1, "opened and partly deflated when it grows")
                // Past the planned size, before the read that would have ended it.
                let handle = FileHandle(forWritingAtPath: path)
                _ = try? handle?.seekToEnd()
                try? handle?.write(contentsOf: Data("more".utf8))
                try? handle?.close()
            }
            return false
        }
        #expect(outcome.status == .failed)
        #expect(outcome.reason?.contains("(3000 bytes at the start, 3004 now)") == true, "\(outcome.reason ?? "")")
        #expect(temporaries.current.isEmpty)
        #expect(try scratch.listing() == ["a.txt"])
    }

    /// Compresses `a.txt` (3,000 bytes, 500-byte chunks) with `change` done
    /// after it was opened, before its first chunk.
    func changedAfterOpening(_ change: (Scratch) throws -> Void) throws -> (FileOutcome, RecordedEvents, TemporaryFiles, Scratch) {
        let scratch = try Scratch()
        try scratch.file("a.txt", Sample.text(3000, seed: 8))
        let (files, temporaries, events, _) = try files(scratch, ["a.txt"], chunk: 500)
        var polls = 0
        var changeError: (any Error)?
        let outcome = files.compress(0, deflaters: deflaters(chunk: 500)) {
            polls += 1
            if polls == 2 {
                #expect(temporaries.current.count == 1, "opened")
                do { try change(scratch) } catch { changeError = error }
            }
            return false
        }
        if let changeError { throw changeError }
        #expect(events.outcomes(of: 0) == [outcome], "reported once")
        #expect(temporaries.current.isEmpty)
        return (outcome, events, temporaries, scratch)
    }

    @Test("a .gz made while the file is deflated is left alone, and the file fails naming it")
    func destinationAppearsMidFile() throws {
        let (outcome, _, _, scratch) = try changedAfterOpening { try $0.file("a.txt.gz", Data("theirs".utf8)) }
        #expect(outcome.reason == CompressionError.destinationExists(scratch.path + "/a.txt.gz").description)
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("a.txt.gz")) == Data("theirs".utf8))
        #expect(try scratch.listing() == ["a.txt", "a.txt.gz"])
    }

    @Test("an original replaced (mv) or removed while it is deflated fails named, and gets no .gz")
    func originalGoneMidFile() throws {
        let (replaced, _, _, scratch) = try changedAfterOpening { scratch in
            try scratch.file("b.txt", Data("other".utf8))
            #expect(rename(scratch.path + "/b.txt", scratch.path + "/a.txt") == 0)
        }
        #expect(replaced.reason == CompressionError.replaced.description)
        #expect(try scratch.listing() == ["a.txt"])

        let (removed, _, _, emptied) = try changedAfterOpening { #expect(unlink($0.path + "/a.txt") == 0) }
        #expect(removed.reason == CompressionError.vanished.description)
        #expect(try emptied.listing().isEmpty)
    }

    @Test("a batch whose job never ran reports each file once: cancelled, or failed with the reason given")
    func neverRan() throws {
        let scratch = try Scratch()
        try scratch.file("a.txt", Sample.text(10))
        try scratch.file("b.txt", Sample.text(20))
        let (files, temporaries, events, _) = try files(scratch, ["a.txt", "b.txt"])
        files.cancelled(0)
        files.failed(1, reason: "executor shut down")
        #expect(events.outcomes(of: 0).map(\.status) == [.cancelled])
        #expect(events.outcomes(of: 1).map(\.status) == [.failed])
        #expect(events.outcomes(of: 1).first?.reason == "executor shut down")
        #expect(events.unread(of: 0) == [10] && events.unread(of: 1) == [20])
        #expect(temporaries.current.isEmpty)
        #expect(try scratch.listing() == ["a.txt", "b.txt"])
    }
}
