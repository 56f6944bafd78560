import CZlib
import Foundation
import Testing
@testable import FileSqueezerCore
import TestSupport

/// The compressor's refusals, driven directly (no process, no timing),
/// through the whole-file strategies' entry point.
@Suite("FileCompressor")
struct FileCompressorTests {
    func compressor(force: Bool = false, files: TemporaryFiles = TemporaryFiles()) -> FileCompressor {
        FileCompressor(level: 6, force: force, chunkSize: 4096, temporaryFiles: files)
    }

    /// Compresses `plan` whole, as stages 1 and 2 do; the outcome is also the one reported.
    func compress(
        _ compressor: FileCompressor, _ plan: FilePlan, events: RecordedEvents = RecordedEvents(),
        isCancelled: () -> Bool = { false }
    ) -> FileOutcome {
        let outcome = compressWholeFile(0, plan, with: compressor, channels: events, isCancelled: isCancelled)
        #expect(events.outcomes(of: 0) == [outcome], "the outcome is reported once")
        return outcome
    }

    func expectFailure(_ outcome: FileOutcome, _ error: CompressionError) {
        #expect(outcome.status == .failed && outcome.reason == error.description, "\(outcome)")
        #expect(outcome.bytesOut == 0)
    }

    func plan(_ scratch: Scratch, _ name: String, size: Int64) -> FilePlan {
        FilePlan(source: scratch.path + "/" + name, relativePath: name, destination: scratch.path + "/" + name + ".gz", size: size)
    }

    @Test("a size different from the planned one fails before anything is written")
    func changedSize() throws {
        let scratch = try Scratch()
        try scratch.file("a.txt", Sample.text(10_000))
        expectFailure(
            compress(compressor(), plan(scratch, "a.txt", size: 9_000)), .changedSize(expected: 9_000, actual: 10_000))
        #expect(try scratch.listing() == ["a.txt"])
    }

    @Test("a missing source is reported as vanished")
    func vanished() throws {
        let scratch = try Scratch()
        expectFailure(compress(compressor(), plan(scratch, "gone.txt", size: 1)), .vanished)
    }

    @Test("cancellation mid-file removes the temporary file and writes no .gz")
    func cancelled() throws {
        let scratch = try Scratch()
        try scratch.file("a.txt", Sample.text(100_000))
        let files = TemporaryFiles()
        let events = RecordedEvents()
        let outcome = compress(
            compressor(files: files), plan(scratch, "a.txt", size: 100_000), events: events,
            isCancelled: { events.progress(of: 0).count >= 3 })
        #expect(outcome.status == .cancelled && outcome.bytesOut == 0)
        #expect(events.progress(of: 0).count == 3)
        #expect(try scratch.listing() == ["a.txt"])
        #expect(files.current.isEmpty)
    }

    @Test("progress reports every chunk up to the file size; the .gz keeps the original's permissions")
    func progress() throws {
        let scratch = try Scratch()
        let path = try scratch.file("a.txt", Sample.text(10_000))
        #expect(chmod(path, 0o640) == 0)
        let events = RecordedEvents()
        let outcome = compress(compressor(), plan(scratch, "a.txt", size: 10_000), events: events)
        #expect(events.progress(of: 0).map(\.total) == [4096, 8192, 10_000])
        #expect(events.progress(of: 0).map(\.previous) == [0, 4096, 8192])
        #expect(outcome.status == .compressed && outcome.bytesIn == 10_000)
        let attributes = try FileManager.default.attributesOfItem(atPath: path + ".gz")
        #expect((attributes[.size] as? NSNumber)?.int64Value == outcome.bytesOut)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640)
    }

    @Test("without force an existing destination is untouched; with force it is replaced")
    func existing() throws {
        let scratch = try Scratch()
        try scratch.file("a.txt", Sample.text(1000))
        try scratch.file("a.txt.gz", Data("old".utf8))
        expectFailure(
            compress(compressor(), plan(scratch, "a.txt", size: 1000)), .destinationExists(scratch.path + "/a.txt.gz"))
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("a.txt.gz")) == Data("old".utf8))
        #expect(compress(compressor(force: true), plan(scratch, "a.txt", size: 1000)).status == .compressed)
        #expect(try runTool("/usr/bin/gzip", ["-dc", scratch.path + "/a.txt.gz"]).output == Sample.text(1000))
        #expect(try scratch.listing() == ["a.txt", "a.txt.gz"])
    }

    @Test("a level zlib refuses is a clear zlib error, freed once (no crash), and leaves nothing")
    func invalidLevel() throws {
        // Before the fix the failed init freed the z_stream and then deinit
        // ended and freed it again: a double free that aborts the process.
        #expect(throws: CompressionError.zlib(status: Z_STREAM_ERROR)) { try ZlibStream(level: 10) }
        #expect(CompressionError.zlib(status: Z_STREAM_ERROR).description == "zlib error -2 (stream error)")

        let scratch = try Scratch()
        try scratch.file("a.txt", Sample.text(1000))
        let files = TemporaryFiles()
        let compressor = FileCompressor(level: 10, force: false, chunkSize: 4096, temporaryFiles: files)
        expectFailure(compress(compressor, plan(scratch, "a.txt", size: 1000)), .zlib(status: Z_STREAM_ERROR))
        #expect(try scratch.listing() == ["a.txt"])
        #expect(files.current.isEmpty)
    }

    @Test("an original replaced by a FIFO or a symbolic link after discovery fails at once, named, leaving nothing")
    func replacedByNonRegularFile() throws {
        let scratch = try Scratch()
        let fifo = scratch.path + "/pipe.txt"
        #expect(mkfifo(fifo, 0o644) == 0)
        // Without O_NONBLOCK, open() waits for a writer forever; this writer
        // turns that hang into a plain test failure (it finds no reader otherwise).
        Thread.detachNewThread {
            sleep(3)
            let descriptor = open(fifo, O_WRONLY | O_NONBLOCK)
            if descriptor >= 0 { close(descriptor) }
        }
        let files = TemporaryFiles()
        expectFailure(compress(compressor(files: files), plan(scratch, "pipe.txt", size: 1000)), .notRegularFile)
        #expect(CompressionError.notRegularFile.description.hasPrefix("not a regular file any more"))

        try scratch.file("real.txt", Sample.text(1000))
        #expect(symlink(scratch.path + "/real.txt", scratch.path + "/link.txt") == 0)
        expectFailure(compress(compressor(files: files), plan(scratch, "link.txt", size: 1000)), .notRegularFile)
        #expect(files.current.isEmpty)
        #expect(try scratch.listing() == ["link.txt", "pipe.txt", "real.txt"])
    }

    @Test("a deflater goes back to the pool after success or cancellation, never after an error")
    func deflaterAfterError() throws {
        let deflaters = DeflaterPool(level: 6, chunkSize: 4096)
        try deflaters.withDeflater { _ in }
        #expect(deflaters.idleCount == 1)
        #expect(throws: CancellationError.self) { try deflaters.withDeflater { _ in throw CancellationError() } }
        #expect(deflaters.idleCount == 1)
        #expect(throws: CompressionError.zlib(status: Z_STREAM_ERROR)) {
            try deflaters.withDeflater { _ in throw CompressionError.zlib(status: Z_STREAM_ERROR) }
        }
        #expect(deflaters.idleCount == 0, "a deflater whose stream may be broken is not reused")
    }
}
