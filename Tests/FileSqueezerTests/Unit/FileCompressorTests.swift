import CZlib
import Foundation
import Testing
@testable import FileSqueezerCore

/// The compressor's refusals, driven directly (no process, no timing).
@Suite("FileCompressor")
struct FileCompressorTests {
    func compressor(force: Bool = false, files: TemporaryFiles = TemporaryFiles()) -> FileCompressor {
        FileCompressor(level: 6, force: force, chunkSize: 4096, temporaryFiles: files)
    }

    func plan(_ scratch: Scratch, _ name: String, size: Int64) -> FilePlan {
        FilePlan(source: scratch.path + "/" + name, relativePath: name, destination: scratch.path + "/" + name + ".gz", size: size)
    }

    @Test("a size different from the planned one fails before anything is written")
    func changedSize() throws {
        let scratch = try Scratch()
        try scratch.file("a.txt", Sample.text(10_000))
        #expect(throws: CompressionError.changedSize(expected: 9_000, actual: 10_000)) {
            try compressor().compress(plan(scratch, "a.txt", size: 9_000), isCancelled: { false }, progress: { _ in })
        }
        #expect(try scratch.listing() == ["a.txt"])
    }

    @Test("a missing source is reported as vanished")
    func vanished() throws {
        let scratch = try Scratch()
        #expect(throws: CompressionError.vanished) {
            try compressor().compress(plan(scratch, "gone.txt", size: 1), isCancelled: { false }, progress: { _ in })
        }
    }

    @Test("cancellation mid-file removes the temporary file and writes no .gz")
    func cancelled() throws {
        let scratch = try Scratch()
        try scratch.file("a.txt", Sample.text(100_000))
        let files = TemporaryFiles()
        var chunks = 0
        #expect(throws: CancellationError.self) {
            try compressor(files: files).compress(
                plan(scratch, "a.txt", size: 100_000),
                isCancelled: { chunks >= 3 }, progress: { _ in chunks += 1 })
        }
        #expect(chunks == 3)
        #expect(try scratch.listing() == ["a.txt"])
        #expect(files.current.isEmpty)
    }

    @Test("progress reports every chunk up to the file size; the .gz keeps the original's permissions")
    func progress() throws {
        let scratch = try Scratch()
        let path = try scratch.file("a.txt", Sample.text(10_000))
        #expect(chmod(path, 0o640) == 0)
        var seen: [Int64] = []
        let written = try compressor().compress(plan(scratch, "a.txt", size: 10_000), isCancelled: { false }) { seen.append($0) }
        #expect(seen == [4096, 8192, 10_000])
        let attributes = try FileManager.default.attributesOfItem(atPath: path + ".gz")
        #expect((attributes[.size] as? NSNumber)?.int64Value == written)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o640)
    }

    @Test("without force an existing destination is untouched; with force it is replaced")
    func existing() throws {
        let scratch = try Scratch()
        try scratch.file("a.txt", Sample.text(1000))
        try scratch.file("a.txt.gz", Data("old".utf8))
        #expect(throws: CompressionError.destinationExists(scratch.path + "/a.txt.gz")) {
            try compressor().compress(plan(scratch, "a.txt", size: 1000), isCancelled: { false }, progress: { _ in })
        }
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent("a.txt.gz")) == Data("old".utf8))
        _ = try compressor(force: true).compress(plan(scratch, "a.txt", size: 1000), isCancelled: { false }, progress: { _ in })
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
        #expect(throws: CompressionError.zlib(status: Z_STREAM_ERROR)) {
            try compressor.compress(plan(scratch, "a.txt", size: 1000), isCancelled: { false }, progress: { _ in })
        }
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
        #expect(throws: CompressionError.notRegularFile) {
            try compressor(files: files).compress(plan(scratch, "pipe.txt", size: 1000), isCancelled: { false }, progress: { _ in })
        }
        #expect(CompressionError.notRegularFile.description.hasPrefix("not a regular file any more"))

        try scratch.file("real.txt", Sample.text(1000))
        #expect(symlink(scratch.path + "/real.txt", scratch.path + "/link.txt") == 0)
        #expect(throws: CompressionError.notRegularFile) {
            try compressor(files: files).compress(plan(scratch, "link.txt", size: 1000), isCancelled: { false }, progress: { _ in })
        }
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
