#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a `.gz` goes: the original's own folder, or a folder under
/// `--output` mirroring it, made (`mkdirat`) and entered (`openat` with
/// `O_NOFOLLOW`) only when the first file in it is written, relative to its
/// parent's descriptor. A symbolic link planted under the output folder is
/// refused, so nothing is ever written through it.
///
/// ```swift
/// let root = OutputFolder(path: "/backup")                      // made (mkdir -p) on first use
/// let sub = OutputFolder(name: Array("2024".utf8), in: root)   // /backup/2024
/// let folder = try sub.open()                                  // makes both; the same Folder after
/// ```
///
/// Every folder a run makes is remembered, so that an interrupted run can
/// remove those it left empty (``removeEmptyFoldersMade()``).
final class OutputFolder: Sendable {
    private enum Origin {
        case existing(Folder)
        case root(String)
        case child([UInt8], of: OutputFolder)
    }

    /// Where it is, for messages (``FileName/display(_:)`` form).
    let path: String
    private let origin: Origin
    private let opened = VisibleMutex<Result<Folder, CompressionError>?>(nil)
    /// Folders this run made, in order, shared by the whole tree.
    private let made: MadeFolders

    /// The original's own folder: already open.
    init(existing folder: Folder) {
        path = folder.path
        origin = .existing(folder)
        opened.withLock { $0 = .success(folder) }
        made = MadeFolders()
    }

    /// The `--output` folder itself, made with its missing parents on first use.
    init(path: String) {
        self.path = path
        origin = .root(path)
        made = MadeFolders()
    }

    /// The folder `name` inside `parent`.
    init(name: [UInt8], in parent: OutputFolder) {
        path = parent.path + "/" + FileName.display(name)
        origin = .child(name, of: parent)
        made = parent.made
    }

    /// The open folder, made first if missing; the same result every time.
    func open() throws(CompressionError) -> Folder {
        if case .existing(let folder) = origin { return folder }  // no lock for the common case
        return try opened.withLock { (opened) throws(CompressionError) -> Folder in
            if opened == nil { opened = Result { () throws(CompressionError) in try make() } }
            return try opened!.get()
        }
    }

    private func make() throws(CompressionError) -> Folder {
        switch origin {
        case .existing(let folder):
            return folder
        case .root(let path):
            try makeFolders(FileName.bytes(path))
            do { return try Folder.open(path) } catch {
                throw .system(action: "cannot create folder \(path)", errno: error.code)
            }
        case .child(let name, let parent):
            let parentFolder = try parent.open()
            if withCName(name, { mkdirat(parentFolder.descriptor, $0, 0o755) }) == 0 {
                made.add(parentFolder, name)
            } else if errno != EEXIST {
                throw .system(action: "cannot create folder \(path)", errno: errno)
            }
            do { return try Folder.open(name, in: parentFolder) } catch {
                var info = stat()
                let isLink = withCName(name) { fstatat(parentFolder.descriptor, $0, &info, AT_SYMLINK_NOFOLLOW) } == 0
                    && info.st_mode & S_IFMT == S_IFLNK
                if isLink { throw .symbolicLinkFolder(path) }
                throw .system(action: "cannot create folder \(path)", errno: error.code)
            }
        }
    }

    /// Removes the folders this run made that are still empty, deepest
    /// first (after Ctrl-C, or any stop). A folder that holds anything stays.
    func removeEmptyFoldersMade() { made.removeEmpty() }

    /// `mkdir -p` for the user's `--output` argument.
    private func makeFolders(_ path: [UInt8]) throws(CompressionError) {
        var info = stat()
        if withCName(path, { stat($0, &info) }) == 0, info.st_mode & S_IFMT == S_IFDIR { return }
        if let slash = path.lastIndex(of: UInt8(ascii: "/")), slash > 0 {
            try makeFolders(Array(path[..<slash]))
        }
        if withCName(path, { mkdir($0, 0o755) }) == 0 {
            made.add(path)
        } else if errno != EEXIST {
            throw .system(action: "cannot create folder \(FileName.display(path))", errno: errno)
        }
    }
}

/// The folders a run made, in order: by parent descriptor and name, or by
/// path for the `--output` folder itself and its missing parents.
private final class MadeFolders: Sendable {
    private let folders = VisibleMutex<[(Folder?, [UInt8])]>([])

    func add(_ parent: Folder, _ name: [UInt8]) { folders.withLock { $0.append((parent, name)) } }
    func add(_ path: [UInt8]) { folders.withLock { $0.append((nil, path)) } }

    func removeEmpty() {
        let all = folders.withLock { folders in
            defer { folders.removeAll() }
            return folders
        }
        // rmdir refuses a folder that is not empty: only empty ones go.
        for (parent, name) in all.reversed() {
            _ = withCName(name) { unlinkat(parent?.descriptor ?? AT_FDCWD, $0, AT_REMOVEDIR) }
        }
    }
}
