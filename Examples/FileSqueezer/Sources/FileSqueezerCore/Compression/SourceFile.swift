#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An original, opened read-only, whose size matched the plan when opened.
///
/// ```swift
/// let source = try SourceFile(plan)                       // throws .vanished, .changedSize, ...
/// try source.read(into: buffer, at: 1 << 20)              // pread: any thread, any order
/// try source.checkUnchanged()                             // after the last byte: did it grow?
/// ```
///
/// Reads are positioned (`pread`), so the segments of one file are read by
/// several threads at once from the one descriptor, each at its own offset.
/// The descriptor is closed when the last reference goes away.
final class SourceFile: Sendable {
    let plan: FilePlan
    let descriptor: Int32
    /// What its `.gz` keeps, as gzip does (mode, owner, group, times), from the `fstat` at open.
    let original: OriginalMetadata

    /// - Throws: ``CompressionError/vanished``, ``CompressionError/notRegularFile``
    ///   (replaced by a FIFO, device, folder or symbolic link since it was
    ///   planned), ``CompressionError/changedSize(expected:actual:)``, or a system error.
    init(_ plan: FilePlan) throws(CompressionError) {
        // Discovery saw a regular file, but it may have been replaced since.
        // O_NONBLOCK: opening a FIFO with no writer would otherwise block
        // forever (and the segmented path opens under the file's lock).
        // O_NOFOLLOW: a symbolic link put in its place is refused (ELOOP).
        let descriptor = open(plan.source, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { throw CompressionError.vanished }
            if code == ELOOP { throw CompressionError.notRegularFile }
            throw CompressionError.system(action: "cannot open", errno: code)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw CompressionError.system(action: "cannot inspect", errno: code)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw CompressionError.notRegularFile
        }
        // Regular files ignore O_NONBLOCK; cleared anyway so reads are plainly blocking.
        let flags = fcntl(descriptor, F_GETFL)
        if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
        guard Int64(info.st_size) == plan.size else {
            close(descriptor)
            throw CompressionError.changedSize(expected: plan.size, actual: Int64(info.st_size))
        }
        self.plan = plan
        self.descriptor = descriptor
        original = OriginalMetadata(info)
    }

    deinit { close(descriptor) }

    /// Fills all of `buffer` from `offset`. A file that ends sooner changed
    /// size since it was planned.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(CompressionError) {
        var filled = 0
        while filled < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + filled, buffer.count - filled, off_t(offset) + off_t(filled))
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(action: "cannot read", errno: errno)
            }
            if count == 0 { throw .changedSize(expected: plan.size, actual: currentSize() ?? offset + Int64(filled)) }
            filled += count
        }
    }

    /// Throws unless the file still has its planned size: called after its
    /// last byte was read, it catches a file that grew meanwhile.
    func checkUnchanged() throws(CompressionError) {
        guard let size = currentSize() else { throw .system(action: "cannot inspect", errno: errno) }
        guard size == plan.size else { throw .changedSize(expected: plan.size, actual: size) }
    }

    private func currentSize() -> Int64? {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? Int64(info.st_size) : nil
    }
}
