/// Idle ``Deflater``s for one level and chunk size: a job takes one
/// (or makes one when none is idle) and gives it back, so there are never
/// more than the most jobs that ran at once, and zlib's ~270 KiB of state
/// is allocated once per worker instead of once per segment.
///
/// ```swift
/// let deflaters = DeflaterPool(level: 6, chunkSize: 256 * 1024)
/// let crc = try deflaters.withDeflater { deflater in
///     try deflater.deflate(range, of: source, ending: .sync, into: output, isCancelled: { false }, afterChunk: { _ in })
/// }
/// ```
final class DeflaterPool: Sendable {
    let level: Int
    let chunkSize: Int
    private let idle = VisibleMutex<[Deflater]>([])

    init(level: Int, chunkSize: Int) {
        self.level = level
        self.chunkSize = chunkSize
    }

    /// Runs `body` with an idle deflater (or a new one). The deflater goes
    /// back to the pool when `body` returns or throws `CancellationError`
    /// (the next ``Deflater/deflate(_:of:ending:into:isCancelled:afterChunk:)``
    /// resets its stream); after any other error, zlib's state may be broken,
    /// so it is dropped and a later job makes a fresh one.
    func withDeflater<Result>(_ body: (Deflater) throws -> Result) throws -> Result {
        let deflater = try idle.withLock { $0.popLast() } ?? Deflater(level: level, chunkSize: chunkSize)
        let result: Result
        do {
            result = try body(deflater)
        } catch let error as CancellationError {
            idle.withLock { $0.append(deflater) }
            throw error
        }
        idle.withLock { $0.append(deflater) }
        return result
    }

    /// Deflaters waiting to be reused.
    var idleCount: Int { idle.withLock { $0.count } }
}
