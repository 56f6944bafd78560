import CZlib

/// A zlib deflate stream that writes the gzip format, fed in chunks.
///
/// The `z_stream` lives in memory allocated once here: zlib keeps a pointer
/// back to it inside its internal state, so it must never move after init
/// (a Swift struct stored property could).
final class GzipDeflater {
    private let stream: UnsafeMutablePointer<z_stream>
    private let output: UnsafeMutableRawBufferPointer

    /// - Parameters:
    ///   - level: 1 (fastest) to 9 (smallest).
    ///   - outputChunkSize: Size of the buffer compressed bytes are handed out in.
    init(level: Int, outputChunkSize: Int) throws(CompressionError) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        output = .allocate(byteCount: outputChunkSize, alignment: 16)
        let status = czlib_deflate_init_gzip(stream, Int32(level))
        guard status == Z_OK else {
            stream.deallocate()
            output.deallocate()
            throw CompressionError.zlib(status: status)
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
        output.deallocate()
    }

    /// Compresses `input`; with `finish` also writes the gzip trailer.
    /// Every full output buffer is handed to `sink` before this returns, so
    /// memory stays at one input and one output chunk whatever the file size.
    func compress(
        _ input: UnsafeRawBufferPointer, finish: Bool,
        into sink: (UnsafeRawBufferPointer) throws(CompressionError) -> Void
    ) throws(CompressionError) {
        stream.pointee.next_in = UnsafeMutablePointer(
            mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(input.count)
        let flush = finish ? Z_FINISH : Z_NO_FLUSH
        while true {
            stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = UInt32(output.count)
            let status = deflate(stream, flush)
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw CompressionError.zlib(status: status)
            }
            let produced = output.count - Int(stream.pointee.avail_out)
            if produced > 0 {
                try sink(UnsafeRawBufferPointer(rebasing: output[0..<produced]))
            }
            // zlib is done with this input when it left output space unused;
            // when finishing, only Z_STREAM_END means the trailer is out.
            if finish ? status == Z_STREAM_END : stream.pointee.avail_out != 0 { return }
        }
    }
}
