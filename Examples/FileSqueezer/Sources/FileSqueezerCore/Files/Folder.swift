#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// An open folder: every name in it is looked up relative to this
/// descriptor (`openat`, `fstatat`, `linkat`), never by a path from the
/// root, so a folder moved or swapped for a symbolic link during the run
/// cannot redirect a read or a write. Shared by the plans of its files;
/// closed when the last of them lets go.
///
/// ```swift
/// let folder = try Folder.open("logs")                       // the FOLDER argument
/// let sub = try Folder.open(Array("2024".utf8), in: folder)  // O_NOFOLLOW: a symlink is refused
/// print(sub.path)                                            // "/abs/logs/2024", for messages
/// ```
final class Folder: Sendable {
    let descriptor: Int32
    /// Where it was when found, for messages only (``FileName/display(_:)`` form).
    let path: String

    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// The longest file name the folder's file system takes (`NAME_MAX`,
    /// asked once per folder: `fpathconf` costs an `fstatfs`).
    var nameLimit: Int {
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

    /// Opens the folder `name` inside `parent`, refusing a symbolic link.
    /// - Throws: The `errno` of `openat` (`ELOOP`/`ENOTDIR` for a symbolic link or a non-folder).
    static func open(_ name: [UInt8], in parent: Folder) throws(Errno) -> Folder {
        let descriptor = withCName(name) { openat(parent.descriptor, $0, flags) }
        guard descriptor >= 0 else { throw Errno(errno) }
        return Folder(descriptor: descriptor, path: parent.path + "/" + FileName.display(name))
    }

    /// Opens a folder given by the user (FOLDER, `--output`): the path is
    /// resolved as given, symbolic links included, as gzip does for its arguments.
    static func open(_ path: String, shown: String? = nil) throws(Errno) -> Folder {
        let descriptor = withCName(FileName.bytes(path)) { openPath($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { throw Errno(errno) }
        return Folder(descriptor: descriptor, path: shown ?? path)
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

/// Calls `body` with `name` as a NUL-terminated C string.
func withCName<Result>(_ name: [UInt8], _ body: (UnsafePointer<CChar>) -> Result) -> Result {
    (name + [0]).withUnsafeBufferPointer { bytes in
        bytes.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
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
