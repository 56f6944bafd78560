#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a scan of the folder found: the files to compress, and the entries
/// left alone with the reason (shown as notes, like gzip's "ignored" lines).
///
/// ```swift
/// let discovery = try discoverFiles(in: "logs", recursive: true, output: nil)
/// for note in discovery.notes { print(note) }   // "link.txt: is a symbolic link - ignored"
/// ```
public struct Discovery: Sendable {
    public var plans: [FilePlan] = []
    public var notes: [String] = []
}

/// The folder argument itself is unusable; nothing was attempted.
///
/// ```swift
/// do { _ = try discoverFiles(in: path, recursive: false, output: nil) }
/// catch { print("file-squeezer: \(error)") }   // "/tmp/x: no such folder"
/// ```
public enum FolderError: Error, Equatable, CustomStringConvertible {
    case missing(String)
    case notAFolder(String)
    case unreadable(String, errno: Int32)

    public var description: String {
        switch self {
        case .missing(let path): "\(path): no such folder"
        case .notAFolder(let path): "\(path): not a folder (give the folder that holds the files)"
        case .unreadable(let path, let code): "\(path): cannot list the folder: \(String(cString: strerror(code)))"
        }
    }
}

/// Lists the regular files of `folder` (and of its subfolders when
/// `recursive`) and decides where each `.gz` goes: beside the original, or
/// under `output` with the same subfolders.
///
/// ```swift
/// let discovery = try discoverFiles(in: "photos", recursive: true, output: "/backup/photos")
/// // photos/2024/a.jpg → /backup/photos/2024/a.jpg.gz
/// ```
///
/// It only reads: nothing is created, even under `output`. An unreadable
/// subfolder becomes a note; only an unusable `folder` throws.
///
/// Never follows symbolic links. Skips files already compressed by their
/// suffix, as gzip does (`GzipFormat.compressedSuffix(of:)`: `.gz`,
/// `.tgz`, `.taz`, `.Z`, ...), our own temporary files,
/// and, when `output` lies inside `folder`, the output folder itself.
public func discoverFiles(in folder: String, recursive: Bool, output: String?) throws(FolderError) -> Discovery {
    var info = stat()
    guard stat(folder, &info) == 0 else {
        let code = errno
        throw code == ENOENT ? .missing(folder) : .unreadable(folder, errno: code)
    }
    guard (info.st_mode & S_IFMT) == S_IFDIR else { throw .notAFolder(folder) }
    let root = absolutePath(folder)
    let outputRoot = output.map(absolutePath)
    var discovery = Discovery()
    try scan(root, relative: "", into: &discovery, recursive: recursive, root: root, outputRoot: outputRoot, isTop: true)
    return discovery
}

private func scan(
    _ folder: String, relative: String, into discovery: inout Discovery,
    recursive: Bool, root: String, outputRoot: String?, isTop: Bool
) throws(FolderError) {
    let names: [String]
    switch listFolder(folder) {
    case .success(let list): names = list
    case .failure(let failure):
        if isTop { throw .unreadable(folder, errno: failure.code) }
        discovery.notes.append("\(folder): cannot list the folder: \(String(cString: strerror(failure.code))) - ignored")
        return
    }
    for name in names.sorted() {
        let path = folder + "/" + name
        let shown = relative.isEmpty ? name : relative + "/" + name
        var info = stat()
        guard lstat(path, &info) == 0 else { continue }  // vanished while listing
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            if let suffix = GzipFormat.compressedSuffix(of: Array(name.utf8)) {
                discovery.notes.append("\(shown): already has \(suffix) suffix - ignored")
            } else if name.hasPrefix("."), name.contains(".gz.squeeze-") {
                continue  // a temporary file of another run
            } else {
                let destinationFolder = outputRoot.map { relative.isEmpty ? $0 : $0 + "/" + relative } ?? folder
                discovery.plans.append(FilePlan(
                    source: path, relativePath: shown,
                    destination: destinationFolder + "/" + name + ".gz", size: Int64(info.st_size)))
            }
        case S_IFDIR:
            if path == outputRoot { continue }
            if recursive {
                try scan(path, relative: shown, into: &discovery, recursive: true, root: root, outputRoot: outputRoot, isTop: false)
            } else {
                discovery.notes.append("\(shown): is a folder (use --recursive) - ignored")
            }
        case S_IFLNK:
            discovery.notes.append("\(shown): is a symbolic link - ignored")
        default:
            discovery.notes.append("\(shown): is not a regular file (FIFO, socket or device) - ignored")
        }
    }
}

private func listFolder(_ path: String) -> Result<[String], FolderErrno> {
    guard let directory = opendir(path) else { return .failure(FolderErrno(code: errno)) }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
        }
        if name != ".", name != ".." { names.append(name) }
    }
    return .success(names)
}

private struct FolderErrno: Error { let code: Int32 }

/// `path` made absolute and without a trailing slash (symlinks resolved when
/// the path exists, so an output folder inside the input is recognised).
func absolutePath(_ path: String) -> String {
    if let resolved = realpath(path, nil) {
        defer { free(resolved) }
        return String(cString: resolved)
    }
    var trimmed = path
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
    if trimmed.hasPrefix("/") { return trimmed }
    let cwd = getcwd(nil, 0).map { pointer in defer { free(pointer) }; return String(cString: pointer) } ?? "."
    return cwd + "/" + trimmed
}
