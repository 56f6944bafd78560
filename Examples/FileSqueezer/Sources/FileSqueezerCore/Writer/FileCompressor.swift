#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How files are compressed to gzip: the level, the chunk and segment
/// sizes, and what happens at each file's start (``begin(_:)``) and end
/// (``end(_:_:bytesRead:)``). ``SegmentedFile`` does the compressing of a
/// whole file at a time, streamed in fixed-size chunks, or in segments that
/// several threads compress at once; ``OneSegmentFiles`` of stage 3's
/// files of one segment, straight through. Every `.gz` so has the same
/// format, written through the same start and end: a gzip header, raw
/// deflate from ``Deflater``, the trailer.
///
/// ```swift
/// let compressor = FileCompressor(level: 6, force: false, temporaryFiles: TemporaryFiles())
/// let outcome = SegmentedFile(streaming: 0, plan: plan, compressor: compressor, events: events)
///     .compressWhole(isCancelled: { Task.isCancelled })
///
/// // Tests and tuning: 64 KiB read chunks, files split every 4 KiB.
/// let tiny = FileCompressor(level: 6, force: false, chunkSize: 65_536, segmentSize: 4096, temporaryFiles: files)
/// ```
///
/// It is synchronous and blocking (file reads and writes, then CPU-bound
/// deflate): callers decide where it runs, which is what the strategies differ in.
struct FileCompressor: Sendable {
    /// Bytes read (and deflated) at a time: 256 KiB.
    ///
    /// ```swift
    /// let buffered = FileCompressor.defaultChunkSize * 2   // a whole-file job holds about this much output
    /// ```
    static let defaultChunkSize = 256 * 1024
    /// Files larger than this are split into segments of this size for the
    /// parallel strategy: 1 MiB. Smaller segments shorten the end of a run,
    /// where one segment may run alone; larger ones cost less per byte (each
    /// segment re-reads and indexes 32 KiB of dictionary and ends in a
    /// 5-byte flush). See Documentation/Performance.md for the measurements.
    ///
    /// ```swift
    /// let segments = (fileSize + Int64(FileCompressor.defaultSegmentSize) - 1) / Int64(FileCompressor.defaultSegmentSize)
    /// ```
    static let defaultSegmentSize = 1 << 20

    let level: Int
    let force: Bool
    let chunkSize: Int
    /// The size of one segment of a large file in the parallel strategy
    /// (the last one of a file may be shorter). A file of at most this size
    /// is one segment: compressed whole by one job. Stages 1 and 2 ignore it.
    ///
    /// ```swift
    /// let compressor = FileCompressor(level: 6, force: false, segmentSize: 4 << 20, temporaryFiles: files)
    /// assert(compressor.segmentSize == 4 << 20)   // 4 MiB segments: fewer, longer jobs
    /// ```
    let segmentSize: Int
    /// Whether the gzip header stores the original's name and modification
    /// time (gzip's default and `-N`); without it, neither (`-n`: MTIME 0).
    ///
    /// ```swift
    /// let anonymous = FileCompressor(level: 6, force: false, storesName: false, temporaryFiles: files)
    /// ```
    let storesName: Bool
    /// Whether each `.gz` is flushed to the disk (`fsync`) before it gets
    /// its final name, and its folder after (gzip's `--synchronous`).
    /// Without it a `.gz` still appears only complete, but a power loss
    /// soon after may leave it empty or missing.
    ///
    /// ```swift
    /// let durable = FileCompressor(level: 6, force: false, synchronous: true, temporaryFiles: files)
    /// ```
    let synchronous: Bool
    let temporaryFiles: TemporaryFiles

    /// - Parameters:
    ///   - level: zlib level, 1 (fastest) to 9 (smallest).
    ///   - force: Replace an existing `.gz` (otherwise the file fails and it is left alone).
    ///   - chunkSize: Bytes read and deflated at a time; positive.
    ///   - segmentSize: Size of a segment in the parallel strategy; positive.
    ///   - storesName: Store the original's name and modification time in the gzip header.
    ///   - synchronous: `fsync` each `.gz` before it is put in place, and its folder after.
    ///   - temporaryFiles: Where temporary outputs are registered until they are moved into place.
    ///
    /// ```swift
    /// let compressor = FileCompressor(level: 9, force: true, temporaryFiles: TemporaryFiles())
    /// ```
    init(
        level: Int, force: Bool, chunkSize: Int = defaultChunkSize, segmentSize: Int = defaultSegmentSize,
        storesName: Bool = true, synchronous: Bool = false, temporaryFiles: TemporaryFiles
    ) {
        precondition(chunkSize > 0 && segmentSize > 0, "chunk and segment sizes must be positive")
        self.level = level
        self.force = force
        self.chunkSize = chunkSize
        self.segmentSize = segmentSize
        self.storesName = storesName
        self.synchronous = synchronous
        self.temporaryFiles = temporaryFiles
    }

    /// The end of every file, whole or in segments, once its trailer is
    /// written: checks that the `bytesRead` bytes were all of the original
    /// (it did not change) and that its name still names it
    /// (``SourceFile/checkReadAndStillNamed(_:)``), then moves the
    /// output into place. Nothing is left behind when it throws.
    func end(_ source: SourceFile, _ output: TemporaryOutput, bytesRead: Int64) throws(CompressionError) {
        do {
            // Changed size, or removed or replaced (mv) since it was opened:
            // no .gz of a file that is gone. One fstatat answers both.
            try source.checkReadAndStillNamed(bytesRead)
        } catch {
            output.discard()
            throw error
        }
        // commit removes the temporary file itself if it fails.
        try output.commit(keeping: source.original, force: force, synchronous: synchronous)
    }

    /// The start of every file, whole or in segments: opens the original
    /// read-only (checking it is the file discovery saw, with its size),
    /// opens (or, under `--output`, makes) the destination folder, refuses
    /// an existing destination without `force`, and creates the temporary
    /// output there. The gzip header goes in front of the first deflate
    /// output, the trailer after the last, so a small file is one `write`.
    /// Nothing is left behind when it throws.
    func begin(_ plan: FilePlan) throws(CompressionError) -> (SourceFile, TemporaryOutput) {
        let source = try SourceFile(plan)
        let folder = try plan.outputFolder.open()
        if !force, !plan.destinationAbsent {
            var info = stat()
            let exists: Bool
            do {
                exists = try folder.withDescriptor { descriptor in
                    withCName(plan.destinationName) { fstatat(descriptor, $0, &info, AT_SYMLINK_NOFOLLOW) } == 0
                }
            } catch {
                throw error.compressionError(folder)
            }
            if exists { throw CompressionError.destinationExists(plan.destination) }
        }
        let output = try TemporaryOutput(
            in: folder, name: plan.destinationName, shown: plan.destination, temporaryFiles: temporaryFiles)
        return (source, output)
    }

    /// The gzip header for `source`: with its name and modification time
    /// when ``storesName``, as gzip writes it.
    func header(for source: SourceFile) -> [UInt8] {
        guard storesName else { return GzipFormat.header(level: level) }
        return GzipFormat.header(
            level: level, name: source.plan.name,
            modificationTime: GzipFormat.timeStamp(seconds: source.original.modificationSeconds))
    }

    /// How many segments a file of `size` bytes is split into (at least one,
    /// so an empty file is one empty segment).
    func segmentCount(forSize size: Int64) -> Int {
        size <= 0 ? 1 : Int((size + Int64(segmentSize) - 1) / Int64(segmentSize))
    }

    /// The bytes of segment `index` of a file of `size` bytes.
    func segmentRange(_ index: Int, ofSize size: Int64) -> Range<Int64> {
        let start = Int64(index) * Int64(segmentSize)
        return start..<min(size, start + Int64(segmentSize))
    }
}
