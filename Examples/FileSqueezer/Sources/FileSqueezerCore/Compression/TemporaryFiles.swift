#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Every temporary output file that exists right now, so an interrupt can
/// remove them all even if the job that made one never gets to run again.
///
/// ```swift
/// let temporaryFiles = TemporaryFiles()
/// let compressor = FileCompressor(level: 6, force: false, temporaryFiles: temporaryFiles)
/// // ... after the run, or on the way out after Ctrl-C:
/// temporaryFiles.removeAll()
/// ```
public final class TemporaryFiles: Sendable {
    private let paths = VisibleMutex<Set<String>>([])

    public init() {}

    func insert(_ path: String) { paths.withLock { _ = $0.insert(path) } }
    func remove(_ path: String) { paths.withLock { _ = $0.remove(path) } }

    /// The temporary files not yet renamed into place or cleaned up.
    public var current: Set<String> { paths.withLock { $0 } }

    /// Unlinks every registered temporary file. Safe to call from any thread,
    /// more than once, and while jobs are still winding down.
    public func removeAll() {
        let all = paths.withLock { paths in
            defer { paths.removeAll() }
            return paths
        }
        for path in all { unlink(path) }
    }
}
