#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The names in `folder` but `.` and `..`, read from a duplicate of its descriptor.
func listFolder(_ folder: Folder) -> Result<[[UInt8]], Errno> {
    let descriptor: Int32
    do { descriptor = try folder.withDescriptor { dup($0) } } catch { return .failure(error.errno) }
    guard descriptor >= 0 else { return .failure(Errno(errno)) }
    guard let directory = fdopendir(descriptor) else {
        let code = errno
        close(descriptor)
        return .failure(Errno(code))
    }
    defer { closedir(directory) }
    rewinddir(directory)
    var names: [[UInt8]] = []
    while true {
        errno = 0
        guard let entry = readdir(directory) else {
            if errno != 0 { return .failure(Errno(errno)) }
            break
        }
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            Array(raw.prefix { $0 != 0 })
        }
        if name != [0x2E], name != [0x2E, 0x2E] { names.append(name) }
    }
    return .success(names)
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
