import CZlib

/// A zlib raw deflate stream (no zlib or gzip framing), fed in chunks and
/// reusable: ``reset(dictionary:)`` starts a new stream on the same state.
///
/// ```swift
/// let deflater = try ZlibStream(level: 6)
/// let output = ByteBuffer(capacity: 64 * 1024)
/// try deflater.reset(dictionary: previous32KiB)        // prime with the bytes before this segment
/// try deflater.compress(chunk, ending: .none, into: output)
/// try deflater.compress(UnsafeRawBufferPointer(start: nil, count: 0), ending: .sync, into: output)
/// ```
///
/// Both ways File Squeezer compresses share it: a whole file is one stream
/// ended with ``Ending/finish``; a segment of a large file is one stream
/// primed with the preceding 32 KiB and ended with ``Ending/sync`` (byte
/// aligned, not final) unless it is the file's last. ``GzipFormat`` adds the
/// header and trailer around them.
///
/// The `z_stream` lives in memory allocated once here: zlib keeps a pointer
/// back to it inside its internal state, so it must never move after init
/// (a Swift struct stored property could). Not thread-safe: one thread at a time.
final class ZlibStream {
    /// How the input handed to ``compress(_:ending:into:)`` ends the stream.
    enum Ending: Sendable {
        /// More input follows.
        case none
        /// The stream stops here without ending: every byte so far is out and
        /// the output ends on a byte boundary (an empty stored block), so
        /// another stream can follow it directly. For every segment but a file's last.
        case sync
        /// The final block: the deflate stream is complete.
        case finish
    }

    let level: Int
    private let stream: UnsafeMutablePointer<z_stream>

    /// - Parameters:
    ///   - level: 1 (fastest) to 9 (smallest).
    ///   - memoryLevel: zlib's `memLevel`, 1 to 9; 8 is its default. It
    ///     sizes the match hash (2^(memoryLevel + 7) heads) that every
    ///     ``reset(dictionary:)`` clears, and the block buffer (2^(memoryLevel
    ///     + 6) symbols). For a tiny input a small one gives the same
    ///     matches and one block, and clears a 4 KiB hash instead of 64 KiB.
    /// - Throws: ``CompressionError/zlib(status:)`` if zlib refuses the
    ///   settings (a level outside 0...9 is `Z_STREAM_ERROR`).
    init(level: Int, memoryLevel: Int = 8) throws(CompressionError) {
        // zlib is set up on a local pointer, and the stored properties are
        // assigned only once it succeeded: a class whose init throws after
        // every stored property is set still runs `deinit`, which would end
        // and free the stream a second time.
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = czlib_deflate_init_raw_memory(stream, Int32(clamping: level), Int32(clamping: memoryLevel))
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw CompressionError.zlib(status: status)
        }
        self.level = level
        self.stream = stream
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// Starts a new stream, keeping zlib's allocations; the next output
    /// begins at a byte boundary. A non-empty `dictionary` (at most the last
    /// 32 KiB are used) lets the new stream refer back to those bytes, which
    /// the decompressor has already produced when the stream follows them.
    func reset(dictionary: UnsafeRawBufferPointer) throws(CompressionError) {
        var status = deflateReset(stream)
        if status == Z_OK, let base = dictionary.baseAddress, dictionary.count > 0 {
            status = deflateSetDictionary(stream, base.assumingMemoryBound(to: Bytef.self), UInt32(dictionary.count))
        }
        guard status == Z_OK else { throw CompressionError.zlib(status: status) }
    }

    /// An upper bound of the output for `count` input bytes ended with
    /// ``Ending/finish``; a ``Ending/sync`` end adds at most a few bytes more.
    func bound(_ count: Int) -> Int {
        Int(deflateBound(stream, UInt(count)))
    }

    /// Compresses all of `input`, appending the output to `output` (which
    /// grows if it must), and ends the stream as `ending` says.
    func compress(_ input: UnsafeRawBufferPointer, ending: Ending, into output: ByteBuffer) throws(CompressionError) {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(input.count)
        let flush = switch ending {
        case .none: Z_NO_FLUSH
        case .sync: Z_SYNC_FLUSH
        case .finish: Z_FINISH
        }
        while true {
            output.reserve(minimumFree: 64)
            let free = output.freeSpace
            stream.pointee.next_out = free.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = UInt32(clamping: free.count)
            let status = deflate(stream, flush)
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw CompressionError.zlib(status: status)
            }
            output.count += Int(UInt32(clamping: free.count) - stream.pointee.avail_out)
            // zlib is done with this input (and the flush) when it left output
            // space unused; when finishing, only Z_STREAM_END means it is all out.
            if ending == .finish ? status == Z_STREAM_END : stream.pointee.avail_out != 0 { return }
        }
    }
}
