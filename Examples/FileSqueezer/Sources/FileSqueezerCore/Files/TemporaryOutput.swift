#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A `.gz` being written: a temporary file in its destination folder,
/// which only ``commit(keeping:force:synchronous:)`` gives the final name.
///
/// ```swift
/// let output = try TemporaryOutput(in: folder, name: Array("a.log.gz".utf8), shown: "/logs/a.log.gz",
///                                  temporaryFiles: temporaryFiles)
/// do {
///     try output.write(bytes)
///     try output.commit(keeping: source.original, force: false)   // linkat (or renameat with force) into place
/// } catch {
///     output.discard()                                       // nothing left behind
/// }
/// ```
///
/// - **Unnamed where possible.** The file is made with `O_TMPFILE` in the
///   folder's descriptor and linked into place by its descriptor
///   (`AT_EMPTY_PATH`, as root) or through `/proc/self/fd/N`
///   (`linkat` refuses an existing name: the no-overwrite rule in one call).
///   Until then it has no name, so nothing is left if the process dies,
///   even by `kill -9`.
/// - **Named fallback.** Where `O_TMPFILE` fails (`EOPNOTSUPP`, `EISDIR`,
///   `EINVAL`, or no `/proc`), or when ``forceNamedEnvironmentVariable`` is
///   set, it is `.squeeze-<pid>-<random token>` (``TemporaryName``),
///   made with `O_EXCL`, short whatever the destination's length; a later
///   run removes it if its writer died (``StaleTemporary``).
///
/// Registered in ``TemporaryFiles`` from creation until committed or
/// discarded, so an interrupt can remove it from any thread. Exactly one of
/// `commit` and `discard` ends it; `commit` discards the file itself when it fails.
///
/// A class: it travels with its original through each file's state (a
/// tuple copied in and out of ``SegmentedFileStateMachine``), where a
/// struct of five references cost five retains and releases per copy.
final class TemporaryOutput: Sendable {
    /// Set (to anything) in the environment, the named fallback is used even
    /// where `O_TMPFILE` works: a testing hook.
    static let forceNamedEnvironmentVariable = "FILE_SQUEEZER_NAMED_TEMPORARIES"

    let descriptor: Int32
    let folder: Folder
    /// ``folder``'s descriptor, held from creation until committed or discarded.
    private let folderDescriptor: Int32
    /// The temporary's name in ``folder``; `nil` for an unnamed one.
    let temporaryName: [UInt8]?
    let destinationName: [UInt8]
    /// The destination's path, for messages.
    let destination: String
    private let temporaryFiles: TemporaryFiles
    private let registration: Int

    /// Creates the temporary file (mode 0600) in `folder`.
    /// - Throws: ``CompressionError/nameTooLong(_:length:limit:)`` when `name`
    ///   is longer than the folder's file system allows, or a system error.
    init(in folder: Folder, name: [UInt8], shown: String, temporaryFiles: TemporaryFiles) throws(CompressionError) {
        let folderDescriptor: Int32
        do { folderDescriptor = try folder.hold() } catch { throw error.compressionError(folder) }
        var created = false
        defer { if !created { folder.release() } }
        let limit = folder.nameLimit(folderDescriptor)
        if name.count > limit { throw .nameTooLong(shown, length: name.count, limit: limit) }
        var descriptor: Int32 = -1
        var temporaryName: [UInt8]?
        if Self.unnamedPossible {
            descriptor = openat(folderDescriptor, ".", O_WRONLY | O_CLOEXEC | unnamedFlag, 0o600)
            if descriptor < 0, ![EOPNOTSUPP, EISDIR, EINVAL].contains(errno) {
                throw .system(action: "cannot create a temporary file in \(folder.path)", errno: errno)
            }
        }
        if descriptor < 0 {
            let name = TemporaryName.next()
            descriptor = withCName(name) {
                openat(folderDescriptor, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            }
            guard descriptor >= 0 else {
                throw .system(action: "cannot create a temporary file in \(folder.path)", errno: errno)
            }
            temporaryName = name
        }
        created = true
        self.folderDescriptor = folderDescriptor
        self.descriptor = descriptor
        self.folder = folder
        self.temporaryName = temporaryName
        destinationName = name
        destination = shown
        self.temporaryFiles = temporaryFiles
        registration = temporaryFiles.insert(folder, temporaryName)
    }

    /// `O_TMPFILE` is tried unless the testing hook says no, or there is no
    /// `/proc/self/fd` to link it through.
    #if os(Linux)
    private static let unnamedPossible = getenv(forceNamedEnvironmentVariable) == nil && access("/proc/self/fd", X_OK) == 0
    #else
    private static let unnamedPossible = false
    #endif

    func write(_ bytes: UnsafeRawBufferPointer) throws(CompressionError) {
        try writeAll(descriptor, bytes)
    }

    func write(_ bytes: [UInt8]) throws(CompressionError) {
        let descriptor = descriptor
        try bytes.withUnsafeBytes { raw in
            Result { () throws(CompressionError) in try writeAll(descriptor, raw) }
        }.get()
    }

    /// Gives the file the `original`'s owner, mode and times (on the
    /// descriptor, see ``OriginalMetadata/apply(to:)``); when `synchronous`,
    /// flushes it to the disk (`fsync`) before it gets its name and its
    /// folder after (so the name survives a power loss too); then gives it
    /// its final name relative to the folder's descriptor and closes it:
    /// `linkat` without `force` (so a `.gz` that appeared meanwhile is not
    /// replaced), `renameat` with it. On failure the temporary file is
    /// removed and the error thrown.
    func commit(keeping original: OriginalMetadata, force: Bool, synchronous: Bool = false) throws(CompressionError) {
        defer {
            temporaryFiles.remove(registration)
            folder.release()
        }
        original.apply(to: descriptor)
        if synchronous, fsync(descriptor) != 0 {
            let code = errno
            close(descriptor)
            unlinkTemporary()
            throw .system(action: "cannot write \(destination)", errno: code)
        }
        if temporaryName != nil, close(descriptor) != 0 {
            let code = errno
            unlinkTemporary()
            throw .system(action: "cannot write \(destination)", errno: code)
        }
        let failure = temporaryName == nil ? linkUnnamed(force: force) : linkNamed(force: force)
        if temporaryName == nil, close(descriptor) != 0, failure == nil {
            let code = errno
            _ = withCName(destinationName) { unlinkat(folderDescriptor, $0, 0) }
            throw .system(action: "cannot write \(destination)", errno: code)
        }
        if let failure {
            if failure == EEXIST, !force { throw .destinationExists(destination) }
            throw .system(action: force ? "cannot rename into \(destination)" : "cannot create \(destination)", errno: failure)
        }
        // The complete .gz is in place already; a failure here says its name
        // may not survive a power loss.
        if synchronous, fsync(folderDescriptor) != 0 {
            throw .system(action: "cannot sync folder \(folder.path)", errno: errno)
        }
    }

    /// The fallback's move into place. - Returns: `errno` on failure.
    private func linkNamed(force: Bool) -> Int32? {
        let name = temporaryName!
        if force {
            let renamed = withCName(name) { from in
                withCName(destinationName) { renameat(folderDescriptor, from, folderDescriptor, $0) }
            } == 0
            let code = errno
            if !renamed { unlinkTemporary() }
            return renamed ? nil : code
        }
        // linkat fails if the destination appeared meanwhile, where renameat
        // would silently replace a .gz the user did not ask us to overwrite.
        let linked = withCName(name) { from in
            withCName(destinationName) { linkat(folderDescriptor, from, folderDescriptor, $0, 0) }
        } == 0
        let code = errno
        unlinkTemporary()
        return linked ? nil : code
    }

    /// `O_TMPFILE`'s move into place: linked by its descriptor; with
    /// `force`, to a temporary name first, then renamed over the destination.
    /// - Returns: `errno` on failure.
    private func linkUnnamed(force: Bool) -> Int32? {
        let name = force ? TemporaryName.next() : destinationName
        let registered = force ? temporaryFiles.insert(folder, name) : nil
        defer { if let registered { temporaryFiles.remove(registered) } }
        if let failure = withCName(name, { linkDescriptor(to: $0) }) { return failure }
        guard force else { return nil }
        let renamed = withCName(name) { from in
            withCName(destinationName) { renameat(folderDescriptor, from, folderDescriptor, $0) }
        } == 0
        let code = errno
        if !renamed { _ = withCName(name) { unlinkat(folderDescriptor, $0, 0) } }
        return renamed ? nil : code
    }

    /// Links the unnamed file to `name` in its folder. - Returns: `errno` on failure.
    ///
    /// By its descriptor (`AT_EMPTY_PATH`) where the process may
    /// (`CAP_DAC_READ_SEARCH`, as root): no path is looked up. Elsewhere the
    /// kernel says `ENOENT` (or `EPERM`), remembered for the run, and the
    /// link goes through `/proc/self/fd/N`, which costs a walk through `/proc`.
    private func linkDescriptor(to name: UnsafePointer<CChar>) -> Int32? {
        #if os(Linux)
        if Self.linksByDescriptor.load(ordering: .relaxed) {
            if linkat(descriptor, "", folderDescriptor, name, emptyPathFlag) == 0 { return nil }
            guard errno == ENOENT || errno == EPERM else { return errno }
            Self.linksByDescriptor.store(false, ordering: .relaxed)
        }
        let source = Array("/proc/self/fd/\(descriptor)".utf8)
        return withCName(source) { linkat(AT_FDCWD, $0, folderDescriptor, name, AT_SYMLINK_FOLLOW) } == 0 ? nil : errno
        #else
        return ENOTSUP  // not reached: no O_TMPFILE (unnamedPossible)
        #endif
    }

    /// Whether ``linkDescriptor(to:)`` still tries `AT_EMPTY_PATH` first.
    private static let linksByDescriptor = Atomic<Bool>(true)

    /// Closes and removes the temporary file.
    func discard() {
        close(descriptor)
        unlinkTemporary()
        temporaryFiles.remove(registration)
        folder.release()
    }

    /// Removes the named temporary; one that cannot be removed (its folder
    /// made read-only meanwhile) is named in ``TemporaryFiles/takeLeftBehind()``.
    private func unlinkTemporary() {
        guard let temporaryName else { return }
        if withCName(temporaryName, { unlinkat(folderDescriptor, $0, 0) }) != 0, errno != ENOENT {
            temporaryFiles.couldNotRemove(folder.path + "/" + FileName.display(temporaryName), errno: errno)
        }
    }
}

/// `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`), a macro Swift does not import,
/// and `AT_EMPTY_PATH` (Linux's 0x1000).
#if os(Linux)
private let unnamedFlag: Int32 = 0o20000000 | O_DIRECTORY
private let emptyPathFlag: Int32 = 0x1000
#else
private let unnamedFlag: Int32 = 0
#endif

private func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(CompressionError) {
    let code = System.writeAll(descriptor, bytes)
    if code != 0 { throw .system(action: "cannot write", errno: code) }
}
