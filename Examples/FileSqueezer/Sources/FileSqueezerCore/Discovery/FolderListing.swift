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
