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
/// try source.checkReadAndStillNamed(read)                 // read to its end: is that the file, still named so?
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
    ///   planned), ``CompressionError/replaced`` (another file has its name),
    ///   ``CompressionError/changedSize(expected:actual:)``, or a system error.
    init(_ plan: FilePlan) throws(CompressionError) {
        // Discovery saw a regular file, but it may have been replaced since.
        // O_NONBLOCK: opening a FIFO with no writer would otherwise block
        // forever (and the segmented path opens under the file's lock).
        // O_NOFOLLOW: a symbolic link put in its place is refused (ELOOP).
        // Relative to its folder's descriptor: a folder swapped for a
        // symbolic link since discovery cannot redirect the open.
        // Held until the end: the name is looked at again before the link.
        let folderDescriptor: Int32
        do { folderDescriptor = try plan.folder.hold() } catch { throw error.compressionError(plan.folder) }
        let descriptor = withCName(plan.name) {
            openat(folderDescriptor, $0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        }
        guard descriptor >= 0 else {
            let code = errno
            plan.folder.release()
            if code == ENOENT { throw CompressionError.vanished }
            if code == ELOOP { throw CompressionError.notRegularFile }
            throw CompressionError.system(action: "cannot open", errno: code)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            plan.folder.release()
            throw CompressionError.system(action: "cannot inspect", errno: code)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            plan.folder.release()
            throw CompressionError.notRegularFile
        }
        if let identity = plan.identity, identity != FileIdentity(info) {
            close(descriptor)
            plan.folder.release()
            throw CompressionError.replaced
        }
        // Regular files ignore O_NONBLOCK (Linux, the BSDs): it stays set,
        // which saves a system call per file; a read that says EAGAIN all
        // the same clears it and reads again (readSome).
        guard Int64(info.st_size) == plan.size else {
            close(descriptor)
            plan.folder.release()
            throw CompressionError.changedSize(expected: plan.size, actual: Int64(info.st_size))
        }
        self.plan = plan
        self.descriptor = descriptor
        self.folderDescriptor = folderDescriptor
        identity = FileIdentity(info)
        original = OriginalMetadata(info)
    }

    deinit {
        close(descriptor)
        plan.folder.release()
    }

    /// The original's folder, held from ``init(_:)`` to `deinit`.
    private let folderDescriptor: Int32
    /// The open file's device and inode.
    private let identity: FileIdentity

    /// The last look at the original, just before its `.gz` is linked into
    /// place, in one `fstatat` of its name: it must still name the open file
    /// (a file removed or replaced, `mv` over it, since it was opened fails,
    /// named, instead of leaving a `.gz` of a file that is no longer there),
    /// and `length` bytes read to its end must be the file
    /// (``checkRead(_:size:)``, with the size that `fstatat` gave: the same
    /// inode as the open file's, so its size).
    func checkReadAndStillNamed(_ length: Int64) throws(CompressionError) {
        // An open file keeps its device and inode: only the name needs a look.
        var named = stat()
        guard withCName(plan.name, { fstatat(folderDescriptor, $0, &named, AT_SYMLINK_NOFOLLOW) }) == 0 else {
            if errno == ENOENT { throw .vanished }
            throw .system(action: "cannot inspect", errno: errno)
        }
        if FileIdentity(named) != identity { throw .replaced }
        try checkRead(length, size: Int64(named.st_size))
    }

    /// Fills all of `buffer` from `offset`. A file that ends sooner changed
    /// size since it was planned.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(CompressionError) {
        // A segment never reaches past the planned end, so readSome stops
        // short only where the file really ended sooner.
        let filled = try readSome(into: buffer, at: offset)
        if filled < buffer.count {
            throw .changedSize(expected: plan.size, actual: currentSize() ?? offset + Int64(filled))
        }
    }

    /// Reads into `buffer` from `offset` until it is full or the file
    /// ends. - Returns: The bytes read (fewer than `buffer.count` at the end).
    func readSome(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(CompressionError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + filled, buffer.count - filled, off_t(offset) + off_t(filled))
            if count < 0 {
                if errno == EINTR { continue }
                // Opened with O_NONBLOCK (see init), which regular files ignore;
                // should one not, it is cleared and the read tried again.
                if errno == EAGAIN, fcntl(descriptor, F_SETFL, 0) == 0 { continue }
                throw .system(action: "cannot read", errno: errno)
            }
            if count == 0 { break }
            filled += count
            // A regular file reads short only at its end: where it was planned
            // to end, that is the end (the last look's fstatat catches growth),
            // without one more pread to see 0. Elsewhere, read until 0.
            if filled < buffer.count, plan.size > 0, offset + Int64(filled) == plan.size { break }
        }
        return filled
    }

    /// Throws unless the file still has its planned size: called after its
    /// last byte was read, it catches a file that grew meanwhile.
    func checkUnchanged() throws(CompressionError) {
        guard let size = currentSize() else { throw .system(action: "cannot inspect", errno: errno) }
        try checkRead(plan.size, size: size)
    }

    /// Decides whether `length` bytes, read to the end of the file, are the
    /// file, as planned:
    /// - `length` is the planned size and `fstat` still says so: yes (a
    ///   file that grew after its last byte was read fails).
    /// - The planned size was 0: yes. The size was unknown: `/proc` files
    ///   say 0 whatever they hold; an empty file that grew is compressed as read.
    /// - `fstat` still gives the planned size, yet the read ended elsewhere:
    ///   yes. Such a file is a pseudo-file (`/sys` says 4096 for every file).
    /// - Otherwise it changed size during the run: it fails, naming the
    ///   planned size and its size now (a file truncated to 0 mid-read is
    ///   0 now, whatever was read before).
    ///
    /// `size` is the file's size now, from an `fstat` taken after the last read.
    func checkRead(_ length: Int64, size: Int64) throws(CompressionError) {
        if length == plan.size {
            guard size == plan.size else { throw .changedSize(expected: plan.size, actual: size) }
            return
        }
        if plan.size == 0 || size == plan.size { return }
        throw .changedSize(expected: plan.size, actual: size)
    }

    private func currentSize() -> Int64? {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? Int64(info.st_size) : nil
    }
}
