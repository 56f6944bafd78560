#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Compresses files to gzip, streaming fixed-size chunks: a whole file at a
/// time (``compress(_:isCancelled:progress:)``), or, for the parallel
/// strategy, in segments that several threads compress at once
/// (``SegmentedFile``). Both write the same format with the same code:
/// a gzip header, raw deflate from ``Deflater``, the trailer.
///
/// ```swift
/// let compressor = FileCompressor(level: 6, force: false, temporaryFiles: TemporaryFiles())
/// let size = try compressor.compress(plan, isCancelled: { Task.isCancelled }) { read in bar.update(read) }
///
/// // Tests and tuning: 64 KiB read chunks, files split every 4 KiB.
/// let tiny = FileCompressor(level: 6, force: false, chunkSize: 65_536, segmentSize: 4096, temporaryFiles: files)
/// ```
///
/// It is synchronous and blocking (file reads and writes, then CPU-bound
/// deflate): callers decide where it runs, which is what the strategies differ in.
public struct FileCompressor: Sendable {
    /// Bytes read (and deflated) at a time: 256 KiB.
    ///
    /// ```swift
    /// let buffered = FileCompressor.defaultChunkSize * 2   // a whole-file job holds about this much output
    /// ```
    public static let defaultChunkSize = 256 * 1024
    /// Files larger than this are split into segments of this size for the
    /// parallel strategy: 1 MiB. Smaller segments shorten the end of a run,
    /// where one segment may run alone; larger ones cost less per byte (each
    /// segment re-reads and indexes 32 KiB of dictionary and ends in a
    /// 5-byte flush). See Documentation/Performance.md for the measurements.
    ///
    /// ```swift
    /// let segments = (fileSize + Int64(FileCompressor.defaultSegmentSize) - 1) / Int64(FileCompressor.defaultSegmentSize)
    /// ```
    public static let defaultSegmentSize = 1 << 20

    public let level: Int
    public let force: Bool
    public let chunkSize: Int
    /// The size of one segment of a large file in the parallel strategy
    /// (the last one of a file may be shorter). A file of at most this size
    /// is one segment: compressed whole by one job. Stages 1 and 2 ignore it.
    ///
    /// ```swift
    /// let compressor = FileCompressor(level: 6, force: false, segmentSize: 4 << 20, temporaryFiles: files)
    /// assert(compressor.segmentSize == 4 << 20)   // 4 MiB segments: fewer, longer jobs
    /// ```
    public let segmentSize: Int
    /// Whether the gzip header stores the original's name and modification
    /// time (gzip's default and `-N`); without it, neither (`-n`: MTIME 0).
    ///
    /// ```swift
    /// let anonymous = FileCompressor(level: 6, force: false, storesName: false, temporaryFiles: files)
    /// ```
    public let storesName: Bool
    /// Whether each `.gz` is flushed to the disk (`fsync`) before it gets
    /// its final name, and its folder after (gzip's `--synchronous`).
    /// Without it a `.gz` still appears only complete, but a power loss
    /// soon after may leave it empty or missing.
    ///
    /// ```swift
    /// let durable = FileCompressor(level: 6, force: false, synchronous: true, temporaryFiles: files)
    /// ```
    public let synchronous: Bool
    public let temporaryFiles: TemporaryFiles

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
    public init(
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

    /// Writes `plan.destination`, or nothing at all, compressing the file as
    /// one deflate stream on the calling thread (stages 1 and 2).
    ///
    /// The output goes to a temporary file beside the destination and is
    /// moved into place only when complete, so a half-written `.gz` never
    /// carries the final name. The original is only ever opened for reading.
    ///
    /// - Parameters:
    ///   - isCancelled: Polled once per chunk; when it returns `true` the
    ///     temporary file is removed and `CancellationError` is thrown.
    ///   - progress: Called after each chunk with the bytes read so far (the
    ///     last call gives all the bytes read, which for a pseudo-file may
    ///     differ from `plan.size`).
    /// - Returns: The size of the `.gz`.
    /// - Throws: ``CompressionError`` naming the reason, or `CancellationError`.
    public func compress(
        _ plan: FilePlan, isCancelled: () -> Bool, progress: (Int64) -> Void
    ) throws -> Int64 {
        let (source, output) = try begin(plan)
        var handedOver = false
        defer { if !handedOver { output.discard() } }

        let deflater = try Deflater(level: level, chunkSize: chunkSize)
        // Written out whenever it holds a chunk's worth: one chunk's output
        // (at most a little over a chunk) always fits.
        let buffer = ByteBuffer(capacity: 2 * chunkSize + 1024)
        header(for: source).withUnsafeBytes { buffer.append($0) }
        var written: Int64 = 0
        // Read to the end, whatever the size said: a pseudo-file's size is
        // not its content's (``SourceFile/checkRead(_:)`` decides).
        let (crc, length) = try deflater.deflateToEnd(of: source, into: buffer, isCancelled: isCancelled) { offset in
            if buffer.count >= chunkSize {
                try output.write(buffer.bytes)
                written += Int64(buffer.count)
                buffer.removeAll()
            }
            progress(offset)
        }
        GzipFormat.trailer(crc: crc, size: length).withUnsafeBytes { buffer.append($0) }
        try output.write(buffer.bytes)
        written += Int64(buffer.count)

        handedOver = true  // end(_:_:bytesRead:) leaves nothing behind when it fails
        try end(source, output, bytesRead: length)
        return written
    }

    /// The end of every file, whole or in segments, once its trailer is
    /// written: checks that the `bytesRead` bytes were all of the original
    /// (``SourceFile/checkRead(_:)``: it did not change), then moves the
    /// output into place. Nothing is left behind when it throws.
    func end(_ source: SourceFile, _ output: TemporaryOutput, bytesRead: Int64) throws(CompressionError) {
        do {
            try source.checkRead(bytesRead)
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
            if withCName(plan.destinationName, { fstatat(folder.descriptor, $0, &info, AT_SYMLINK_NOFOLLOW) }) == 0 {
                throw CompressionError.destinationExists(plan.destination)
            }
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
            modificationTime: source.original.gzipTimeStamp)
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
