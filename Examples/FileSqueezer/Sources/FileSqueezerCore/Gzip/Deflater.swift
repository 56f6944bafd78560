/// What one thread needs to deflate part of a file: a ``ZlibStream``, an
/// input chunk buffer and room for the 32 KiB dictionary. Both ways of
/// compressing use it: a whole file is the range `0..<size` ended with
/// `.finish`; a segment is its own range, primed with the bytes before it.
///
/// ```swift
/// let deflater = try Deflater(level: 6, chunkSize: 256 * 1024)
/// let output = ByteBuffer(capacity: deflater.stream.bound(1 << 20) + 64)
/// let crc = try deflater.deflate(0..<(1 << 20), of: source, ending: .sync, into: output,
///                               isCancelled: { false }, afterChunk: { _ in })
/// ```
///
/// Used by one thread at a time (handed between them by ``DeflaterPool``'s
/// lock, hence `@unchecked Sendable`); allocated once, reused for every range.
final class Deflater: @unchecked Sendable {
    /// Deflate refers back at most this far, so this much before a segment
    /// is all its dictionary needs.
    static let windowSize = 32 * 1024

    /// A whole file of at most this many bytes is deflated by ``tinyStream``:
    /// below its block buffer's 1,024 symbols, so it is one block as with
    /// the default stream.
    static let tinyInputLimit: Int64 = 1_023
    /// The levels that take the tiny stream: zlib's lazy matcher (4–9),
    /// where its output is the default stream's byte for byte
    /// (`ZlibStreamTests`). At 1–3 the fast matcher looks at only a few
    /// candidates, which colliding entries of the smaller hash can use up:
    /// the bytes may differ there, so those levels keep the default stream.
    static let tinyStreamLevels = 4...9

    let stream: ZlibStream
    /// For whole files of at most ``tinyInputLimit`` bytes (made on first
    /// use): zlib clears its match hash on every reset, 64 KiB at the default
    /// memory level, a real share of the time of many tiny files.
    private var tinyStream: ZlibStream?
    private let input: UnsafeMutableRawBufferPointer
    private let dictionary: UnsafeMutableRawBufferPointer

    init(level: Int, chunkSize: Int) throws(CompressionError) {
        stream = try ZlibStream(level: level)
        input = .allocate(byteCount: max(chunkSize, 1), alignment: 16)
        dictionary = .allocate(byteCount: Self.windowSize, alignment: 16)
    }

    deinit {
        input.deallocate()
        dictionary.deallocate()
    }

    /// Deflates the bytes `range` of `source` as one raw deflate stream
    /// appended to `output`, reading a chunk at a time.
    ///
    /// The stream is primed with the (up to) 32 KiB of the original just
    /// before `range`, read here with `pread`, so it depends on no other
    /// segment's work yet may refer back into the bytes before it.
    ///
    /// - Parameters:
    ///   - ending: `.sync` for a segment that other segments follow, `.finish` for the last.
    ///   - isCancelled: Polled before every chunk; `true` throws `CancellationError`.
    ///   - afterChunk: Called after each chunk with the offset read up to.
    /// - Returns: The CRC-32 of the range.
    /// - Throws: ``CompressionError`` (a short read means the file changed
    ///   size), `CancellationError`, or what `afterChunk` throws.
    func deflate(
        _ range: Range<Int64>, of source: SourceFile, ending: ZlibStream.Ending, into output: ByteBuffer,
        isCancelled: () -> Bool, afterChunk: (Int64) throws -> Void
    ) throws -> UInt32 {
        let primed = Int(min(range.lowerBound, Int64(Self.windowSize)))
        let window = UnsafeMutableRawBufferPointer(rebasing: dictionary[0..<primed])
        try source.read(into: window, at: range.lowerBound - Int64(primed))
        try stream.reset(dictionary: UnsafeRawBufferPointer(window))

        var crc: UInt32 = 0
        var offset = range.lowerBound
        // Runs once for an empty range too: the stream still needs its end.
        repeat {
            if isCancelled() { throw CancellationError() }
            let count = Int(min(Int64(input.count), range.upperBound - offset))
            let chunk = UnsafeMutableRawBufferPointer(rebasing: input[0..<count])
            try source.read(into: chunk, at: offset)
            crc = GzipFormat.crc(crc, UnsafeRawBufferPointer(chunk))
            offset += Int64(count)
            try stream.compress(
                UnsafeRawBufferPointer(chunk), ending: offset == range.upperBound ? ending : .none, into: output)
            try afterChunk(offset)
        } while offset < range.upperBound
        return crc
    }
}

extension Deflater {
    /// Deflates all of `source`, read to its end whatever its size said
    /// (pseudo-files in `/proc` and `/sys` report sizes unlike their
    /// contents), as one raw deflate stream ended with `.finish`.
    ///
    /// ```swift
    /// let (crc, length) = try deflater.deflateToEnd(of: source, expectedSize: size, into: output, isCancelled: { false }) { _ in }
    /// try source.checkReadAndStillNamed(length)
    /// ```
    ///
    /// - Returns: The CRC-32 of what was read, and its length.
    /// `expectedSize` is the size the file's metadata gave: from 1 to
    /// ``tinyInputLimit``, at a level of ``tinyStreamLevels``, picks the tiny
    /// stream (a file that then reads longer still compresses correctly, in
    /// more blocks). A size of 0 does not: pseudo-files in `/proc` report 0
    /// whatever their length.
    func deflateToEnd(
        of source: SourceFile, expectedSize: Int64, into output: ByteBuffer, isCancelled: () -> Bool,
        afterChunk: (Int64) throws -> Void
    ) throws -> (crc: UInt32, length: Int64) {
        let isTiny = expectedSize > 0 && expectedSize <= Self.tinyInputLimit && Self.tinyStreamLevels.contains(stream.level)
        let stream = try isTiny ? tiny() : self.stream
        try stream.reset(dictionary: UnsafeRawBufferPointer(start: nil, count: 0))
        var crc: UInt32 = 0
        var offset: Int64 = 0
        while true {
            if isCancelled() { throw CancellationError() }
            let count = try source.readSome(into: input, at: offset)
            let chunk = UnsafeRawBufferPointer(rebasing: input[0..<count])
            crc = GzipFormat.crc(crc, chunk)
            offset += Int64(count)
            // A short chunk is the end: a file does not grow under a read we trust.
            try stream.compress(chunk, ending: count < input.count ? .finish : .none, into: output)
            try afterChunk(offset)
            if count < input.count { return (crc, offset) }
        }
    }

    /// The tiny-input stream, made on first use with the same level.
    private func tiny() throws(CompressionError) -> ZlibStream {
        if let tinyStream { return tinyStream }
        let made = try ZlibStream(level: stream.level, memoryLevel: 4)
        tinyStream = made
        return made
    }
}
