#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A `.gz` being written: a temporary file beside its destination, which
/// only ``commit(keeping:force:synchronous:)`` gives the final name.
///
/// ```swift
/// let output = try TemporaryOutput(for: "/logs/a.log.gz", temporaryFiles: temporaryFiles)
/// do {
///     try output.write(bytes)
///     try output.commit(keeping: source.original, force: false)   // link (or rename with force) into place
/// } catch {
///     output.discard()                                       // nothing left behind
/// }
/// ```
///
/// The temporary file is registered in ``TemporaryFiles`` from creation until
/// it is committed or discarded, so an interrupt can remove it from any
/// thread. Exactly one of `commit` and `discard` ends it; `commit` discards
/// the file itself when it fails.
struct TemporaryOutput: Sendable {
    let descriptor: Int32
    let path: String
    let destination: String
    private let temporaryFiles: TemporaryFiles

    /// Creates the destination's missing folders and a temporary file
    /// (`.NAME.squeeze-XXXXXX`, mode 0600) in the destination's folder.
    init(for destination: String, temporaryFiles: TemporaryFiles) throws(CompressionError) {
        let folder = parentFolder(of: destination)
        try makeFolders(folder)
        let name = destination.split(separator: "/").last.map(String.init) ?? "output"
        var template = Array("\(folder)/.\(name).squeeze-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw .system(action: "cannot create a temporary file in \(folder)", errno: errno)
        }
        self.descriptor = descriptor
        path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.destination = destination
        self.temporaryFiles = temporaryFiles
        temporaryFiles.insert(path)
    }

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
    /// folder after (so the name survives a power loss too); closes it and moves it to its
    /// destination: `link` without `force` (so a `.gz` that appeared
    /// meanwhile is not replaced), `rename` with it. On failure the
    /// temporary file is removed and the error thrown.
    func commit(keeping original: OriginalMetadata, force: Bool, synchronous: Bool = false) throws(CompressionError) {
        defer { temporaryFiles.remove(path) }
        original.apply(to: descriptor)
        if synchronous, fsync(descriptor) != 0 {
            let code = errno
            close(descriptor)
            unlink(path)
            throw .system(action: "cannot write \(destination)", errno: code)
        }
        guard close(descriptor) == 0 else {
            let code = errno
            unlink(path)
            throw .system(action: "cannot write \(destination)", errno: code)
        }
        if force {
            guard rename(path, destination) == 0 else {
                let code = errno
                unlink(path)
                throw .system(action: "cannot rename into \(destination)", errno: code)
            }
            if synchronous { try syncFolder(of: destination) }
            return
        }
        // link() fails if the destination appeared meanwhile, where rename()
        // would silently replace a .gz the user did not ask us to overwrite.
        let linked = link(path, destination) == 0
        let code = errno
        unlink(path)
        guard linked else {
            if code == EEXIST { throw .destinationExists(destination) }
            throw .system(action: "cannot create \(destination)", errno: code)
        }
        if synchronous { try syncFolder(of: destination) }
    }

    /// Closes and removes the temporary file.
    func discard() {
        close(descriptor)
        unlink(path)
        temporaryFiles.remove(path)
    }
}

private func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws(CompressionError) {
    var done = 0
    while done < bytes.count {
        let count = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
        if count < 0 {
            if errno == EINTR { continue }
            throw .system(action: "cannot write", errno: errno)
        }
        done += count
    }
}

/// Flushes the folder holding `path` (its new entry) to the disk. The
/// complete `.gz` is in place already; a failure says its name may not
/// survive a power loss.
private func syncFolder(of path: String) throws(CompressionError) {
    let folder = parentFolder(of: path)
    let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { throw .system(action: "cannot sync folder \(folder)", errno: errno) }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else { throw .system(action: "cannot sync folder \(folder)", errno: errno) }
}

private func makeFolders(_ folder: String) throws(CompressionError) {
    if isDirectory(folder) { return }
    let parent = parentFolder(of: folder)
    if parent != folder { try makeFolders(parent) }
    if mkdir(folder, 0o755) != 0 && errno != EEXIST {
        throw .system(action: "cannot create folder \(folder)", errno: errno)
    }
    if !isDirectory(folder) {
        throw .system(action: "cannot create folder \(folder)", errno: ENOTDIR)
    }
}

func parentFolder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}

func pathExists(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0
}

func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}
