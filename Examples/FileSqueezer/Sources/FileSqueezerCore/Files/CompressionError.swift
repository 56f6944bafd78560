import CZlib
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why one file could not be compressed, worded for the person running the tool.
enum CompressionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A system call failed; `action` says what was being done ("cannot read").
    case system(action: String, errno: Int32)
    /// The file disappeared between discovery and compression.
    case vanished
    /// The path no longer names a regular file (it was replaced by a FIFO,
    /// device, folder or symbolic link after discovery); it is left alone.
    case notRegularFile
    /// The file's size differs from the size seen when the run started.
    case changedSize(expected: Int64, actual: Int64)
    /// The name now belongs to another file than the one discovery saw
    /// (device and inode differ): it was swapped during the run; left alone.
    case replaced
    /// The file's folder (path given) was closed to keep descriptors few,
    /// and its name is now gone, no folder, or another folder than
    /// discovery saw: it was moved or replaced during the run.
    case folderReplaced(String)
    /// The destination `.gz` exists and `--force` was not given.
    case destinationExists(String)
    /// The `.gz` name (path given) is longer than its file system allows.
    case nameTooLong(String, length: Int, limit: Int)
    /// A folder under `--output` is a symbolic link: nothing is written through it.
    case symbolicLinkFolder(String)
    /// zlib reported an internal error (should not happen with valid settings).
    case zlib(status: Int32)

    var description: String {
        switch self {
        case .system(let action, let code):
            "\(action): \(String(cString: strerror(code)))"
        case .vanished:
            "the file vanished during the run"
        case .notRegularFile:
            "not a regular file any more (replaced during the run); left alone"
        case .changedSize(let expected, let actual):
            "the file changed size during the run (\(expected) bytes at the start, \(actual) now); its .gz was not kept"
        case .replaced:
            "the file was replaced during the run (another file has its name now); left alone"
        case .folderReplaced(let path):
            "its folder \(path) was moved or replaced during the run; left alone"
        case .nameTooLong(let path, let length, let limit):
            "cannot create \(path): its name is \(length) bytes, longer than the \(limit) a file name may have there"
        case .symbolicLinkFolder(let path):
            "\(path) is a symbolic link, not a folder; nothing is written through it"
        case .destinationExists(let path):
            "\(path) already exists; left untouched (use --force to overwrite)"
        case .zlib(let status):
            // zError names the status ("stream error" for bad settings such as a level of 10).
            "zlib error \(status) (\(String(cString: zError(status))))"
        }
    }
}
