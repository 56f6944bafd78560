#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a `.gz` goes: the original's own folder, or a folder under
/// `--output` mirroring it, made (`mkdirat`) and entered (`openat` with
/// `O_NOFOLLOW`) only when the first file in it is written, relative to its
/// parent's descriptor; after that it is a ``Folder`` of the bounded
/// window like any other (closed when unused, reopened and checked). A symbolic link planted under the output folder is
/// refused, so nothing is ever written through it.
///
/// ```swift
/// let (root, missing) = OutputFolder.lazily(at: "/backup/new", shown: "/backup/new")  // opens /backup now
/// let sub = OutputFolder(name: Array("2024".utf8), in: root)   // /backup/new/2024
/// let folder = try sub.open()                                  // makes both; the same Folder after
/// ```
///
/// Every folder a run makes is remembered, so that an interrupted run can
/// remove those it left empty (``removeEmptyFoldersMade()``).
final class OutputFolder: Sendable {
    private enum Origin {
        case existing(Folder)
        case unusable(CompressionError)
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

    /// The `--output` folder `path`: its deepest existing ancestor is
    /// opened now (the path is the user's, resolved as given); the missing
    /// folders below it are made with `mkdirat` on first use, like the
    /// mirrored ones. - Returns: The folder, and how many folders are missing.
    static func lazily(at path: String, shown: String) -> (folder: OutputFolder, missing: Int) {
        var ancestor = FileName.bytes(path)
        while ancestor.count > 1, ancestor.last == UInt8(ascii: "/") { ancestor.removeLast() }
        var missing: [[UInt8]] = []
        let slash = UInt8(ascii: "/"), dot = [UInt8(ascii: ".")]
        while true {
            do {
                let folder = try Folder.open(FileName.display(ancestor), shown: absolutePath(FileName.display(ancestor)))
                var result = OutputFolder(existing: folder)
                for name in missing { result = OutputFolder(name: name, in: result) }
                return (result, missing.count)
            } catch {
                // Missing (or a file where a folder should be: named when made): try the parent.
                guard error.code == ENOENT || error.code == ENOTDIR, ancestor != [slash], ancestor != dot else {
                    let failure = CompressionError.system(action: "cannot open folder \(shown)", errno: error.code)
                    return (OutputFolder(unusable: failure, shown: shown), 0)
                }
                let cut = ancestor.lastIndex(of: slash)
                let name = Array(ancestor[(cut.map { $0 + 1 } ?? 0)...])
                if !name.isEmpty, name != dot { missing.insert(name, at: 0) }
                ancestor = cut.map { $0 == 0 ? [slash] : Array(ancestor[..<$0]) } ?? dot
            }
        }
    }

    /// Why `path` cannot be the `--output` folder, or `nil` when it can.
    /// The path is followed as given, symbolic links included (like FOLDER):
    /// its deepest entry that exists must be a folder (or lead to one), since
    /// the missing ones are made inside it. A file, or a symbolic link to
    /// nothing, is refused here, before anything is done, with one message.
    ///
    /// ```swift
    /// OutputFolder.problem(with: "notes.txt")    // "notes.txt: not a folder"
    /// OutputFolder.problem(with: "new/deeper")   // nil: both are made on first use
    /// ```
    static func problem(with path: String) -> String? {
        var entry = FileName.bytes(path)
        let slash = UInt8(ascii: "/")
        while entry.count > 1, entry.last == slash { entry.removeLast() }
        var info = stat()
        while withCName(entry, { lstat($0, &info) }) != 0 {
            guard errno == ENOENT || errno == ENOTDIR, let cut = entry.lastIndex(of: slash) else { return nil }  // made in "."
            entry = cut == 0 ? [slash] : Array(entry[..<cut])
            while entry.count > 1, entry.last == slash { entry.removeLast() }
        }
        let shown = FileName.display(entry)
        let isLink = info.st_mode & S_IFMT == S_IFLNK
        guard withCName(entry, { stat($0, &info) }) == 0 else {
            let code = errno
            if isLink, code == ENOENT { return "\(shown): is a symbolic link to nothing, not a folder (the --output folder)" }
            return "\(shown): cannot use it as the --output folder: \(String(cString: strerror(code)))"
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { return "\(shown): not a folder (the --output folder)" }
        return nil
    }

    private init(unusable failure: CompressionError, shown: String) {
        path = shown
        origin = .unusable(failure)
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
        case .unusable(let failure):
            throw failure
        case .child(let name, let parent):
            let parentFolder = try parent.open()
            let parentDescriptor: Int32
            do { parentDescriptor = try parentFolder.hold() } catch { throw error.compressionError(parentFolder) }
            defer { parentFolder.release() }
            if withCName(name, { mkdirat(parentDescriptor, $0, 0o755) }) == 0 {
                made.add(parentFolder, name)
            } else if errno != EEXIST {
                throw .system(action: "cannot create folder \(path)", errno: errno)
            }
            do { return try Folder.open(name, in: parentFolder) } catch {
                var info = stat()
                let isLink = withCName(name) { fstatat(parentDescriptor, $0, &info, AT_SYMLINK_NOFOLLOW) } == 0
                    && info.st_mode & S_IFMT == S_IFLNK
                if isLink { throw .symbolicLinkFolder(path) }
                throw .system(action: "cannot create folder \(path)", errno: error.code)
            }
        }
    }

    /// Removes the folders this run made that are still empty, deepest
    /// first (after Ctrl-C, or any stop). A folder that holds anything stays.
    func removeEmptyFoldersMade() { made.removeEmpty() }
}

/// The folders a run made, in order, by parent descriptor and name.
private final class MadeFolders: Sendable {
    private let folders = VisibleMutex<[(Folder, [UInt8])]>([])

    func add(_ parent: Folder, _ name: [UInt8]) { folders.withLock { $0.append((parent, name)) } }

    func removeEmpty() {
        let all = folders.withLock { folders in
            defer { folders.removeAll() }
            return folders
        }
        // rmdir refuses a folder that is not empty: only empty ones go.
        for (parent, name) in all.reversed() {
            _ = try? parent.withDescriptor { descriptor in withCName(name) { unlinkat(descriptor, $0, AT_REMOVEDIR) } }
        }
    }
}
