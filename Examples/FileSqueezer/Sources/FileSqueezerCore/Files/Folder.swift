#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A folder of the run: every name in it is looked up relative to its
/// descriptor (`openat`, `fstatat`, `linkat`), never by a path from the
/// root, so a folder moved or swapped for a symbolic link during the run
/// cannot redirect a read or a write.
///
/// ```swift
/// let root = try Folder.open("logs")                        // the FOLDER argument: held for the run
/// let sub = Folder(Array("2024".utf8), in: root, identity: seen)  // opened when first held
/// let descriptor = try sub.hold()                           // O_NOFOLLOW, then (st_dev, st_ino) checked
/// defer { sub.release() }
/// ```
///
/// Descriptors are a bounded window, not one per folder: a
/// folder given by the user is held for the run; any other is open only
/// while someone holds it (a walk listing it, a file of it being
/// compressed) and for a while after, among the ``FolderWindow/keptOpen``
/// folders used last. A folder closed meanwhile is opened again relative
/// to its parent (held for that moment, reopened the same way if need be)
/// and must still be the folder discovery saw; if it was moved or
/// replaced, ``hold()`` says so and nothing is read or written in it. So
/// any number of folders runs under any open-file limit that fits the jobs.
final class Folder: Sendable {
    /// Where it was when found, for messages only (``FileName/display(_:)`` form).
    let path: String
    private let origin: Origin

    private enum Origin {
        /// Opened by path (FOLDER, `--output`): held until the last reference goes.
        case held(Int32)
        /// `name` in `parent`, opened when held and checked against `identity`.
        case child(parent: Folder, name: [UInt8], identity: FileIdentity)
    }

    init(descriptor: Int32, path: String) {
        self.path = path
        origin = .held(descriptor)
    }

    /// The folder `name` in `parent`, which discovery saw as `identity`; nothing is opened yet.
    init(_ name: [UInt8], in parent: Folder, identity: FileIdentity) {
        path = parent.path + "/" + FileName.display(name)
        origin = .child(parent: parent, name: name, identity: identity)
    }

    deinit {
        switch origin {
        case .held(let descriptor): if descriptor >= 0 { close(descriptor) }
        case .child: FolderWindow.shared.forget(ObjectIdentifier(self))
        }
    }

    /// The folder's descriptor, open until the matching ``release()``:
    /// from the window if it is open, else opened again relative to its
    /// parent and checked to be the folder discovery saw.
    /// - Throws: ``FolderUnavailable``: it is gone, no folder any more, another folder, or `openat` failed.
    func hold() throws(FolderUnavailable) -> Int32 {
        let (parent, name, identity): (Folder, [UInt8], FileIdentity)
        switch origin {
        case .held(let descriptor): return descriptor
        case .child(let from, let named, let seen): (parent, name, identity) = (from, named, seen)
        }
        let key = ObjectIdentifier(self)
        if let descriptor = FolderWindow.shared.pin(key) { return descriptor }
        let parentDescriptor = try parent.hold()
        let descriptor = withCName(name) { openat(parentDescriptor, $0, Folder.flags) }
        let code = errno
        parent.release()
        guard descriptor >= 0 else {
            switch code {
            case ENOENT: throw .vanished
            case ELOOP, ENOTDIR: throw .notAFolder
            default: throw .system(Errno(code))
            }
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, FileIdentity(info) == identity else {
            close(descriptor)
            throw .replaced
        }
        return FolderWindow.shared.insert(key, descriptor)
    }

    /// Lets go of a ``hold()``: the descriptor may be closed from now on.
    func release() {
        if case .child = origin { FolderWindow.shared.unpin(ObjectIdentifier(self)) }
    }

    /// `body` with the folder's descriptor, held for the call.
    func withDescriptor<Result>(_ body: (Int32) -> Result) throws(FolderUnavailable) -> Result {
        let descriptor = try hold()
        defer { release() }
        return body(descriptor)
    }

    /// The longest file name the folder's file system takes (`NAME_MAX`,
    /// asked once per folder: `fpathconf` costs an `fstatfs`), given its held descriptor.
    func nameLimit(_ descriptor: Int32) -> Int {
        let known = cachedNameLimit.load(ordering: .relaxed)
        if known != 0 { return known }
        let limit = fpathconf(descriptor, Int32(_PC_NAME_MAX))
        let value = limit > 0 ? limit : Int.max
        cachedNameLimit.store(value, ordering: .relaxed)
        return value
    }

    private let cachedNameLimit = Atomic<Int>(0)

    /// Flags for every folder opened: never through a symbolic link.
    static let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC

    /// Makes the folder `name` inside `parent` a member of the window, as
    /// it is now (for folders the run itself made, under `--output`).
    /// - Throws: The `errno` of `openat` (`ELOOP`/`ENOTDIR` for a symbolic link or a non-folder).
    static func open(_ name: [UInt8], in parent: Folder) throws(Errno) -> Folder {
        let parentDescriptor: Int32
        do { parentDescriptor = try parent.hold() } catch { throw error.errno }
        defer { parent.release() }
        let descriptor = withCName(name) { openat(parentDescriptor, $0, flags) }
        guard descriptor >= 0 else { throw Errno(errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw Errno(code)
        }
        let folder = Folder(name, in: parent, identity: FileIdentity(info))
        FolderWindow.shared.insert(ObjectIdentifier(folder), descriptor)
        folder.release()
        return folder
    }

    /// Opens a folder given by the user (FOLDER, `--output`): the path is
    /// resolved as given, symbolic links included, as gzip does for its arguments.
    static func open(_ path: String, shown: String? = nil) throws(Errno) -> Folder {
        let descriptor = withCName(FileName.bytes(path)) { openPath($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw Errno(errno) }
        return Folder(descriptor: descriptor, path: shown ?? path)
    }
}

/// Why a folder could not be held again (``Folder/hold()``).
enum FolderUnavailable: Error, Equatable {
    /// Its name is gone from its parent: moved away or removed.
    case vanished
    /// Its name is a symbolic link or no folder now.
    case notAFolder
    /// Its name is another folder than discovery saw.
    case replaced
    case system(Errno)

    /// As an `errno`, for callers that report one.
    var errno: Errno {
        switch self {
        case .vanished: Errno(ENOENT)
        case .notAFolder: Errno(ENOTDIR)
        case .replaced: Errno(ESTALE)
        case .system(let code): code
        }
    }

    /// The failure of a file in `folder`, in words.
    func compressionError(_ folder: Folder) -> CompressionError {
        if case .system(let code) = self { return .system(action: "cannot open folder \(folder.path)", errno: code.code) }
        return .folderReplaced(folder.path)
    }
}

/// `open(2)`, out of reach of ``Folder/open(_:shown:)``'s name.
private func openPath(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 { open(path, flags) }

/// A failed system call's `errno`, as a typed error.
struct Errno: Error, Equatable {
    let code: Int32
    init(_ code: Int32) { self.code = code }
    var text: String { String(cString: strerror(code)) }
}

/// The identity of a file: what discovery saw, checked again when it is opened.
struct FileIdentity: Sendable, Hashable {
    let device: UInt64
    let inode: UInt64

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// Calls `body` with `name` as a NUL-terminated C string, copied to the
/// stack (up to a page; longer ones to the heap): several per file, so
/// `name + [0]` cost an allocation each.
func withCName<Result>(_ name: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
    name.withUnsafeBufferPointer { bytes in
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
            if let base = bytes.baseAddress {
                UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: base, byteCount: bytes.count)
            }
            buffer[bytes.count] = 0
            return body(buffer.baseAddress!)
        }
    }
}

/// `path` made absolute and without a trailing slash (symlinks resolved when
/// the path exists), for messages; bytes in ``FileName/display(_:)`` form.
func absolutePath(_ path: String) -> String {
    let bytes = FileName.bytes(path)
    if let resolved = withCName(bytes, { realpath($0, nil) }) {
        defer { free(resolved) }
        return FileName.display(UnsafeBufferPointer(start: resolved, count: strlen(resolved)).map { UInt8(bitPattern: $0) })
    }
    var trimmed = path
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
    if trimmed.hasPrefix("/") { return trimmed }
    let cwd = getcwd(nil, 0).map { pointer in defer { free(pointer) }; return String(cString: pointer) } ?? "."
    return cwd + "/" + trimmed
}
