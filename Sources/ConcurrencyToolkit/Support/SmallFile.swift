#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small file read whole in one `read` into a buffer on the stack: the
/// `/proc` files the detectors and the executors poll (`loadavg`, a
/// thread's `syscall`, `stat` or `schedstat`), none longer than a line.
enum SmallFile {
    /// Hands `body` the first `capacity` bytes of `path`, without
    /// allocating; nil when the file cannot be opened or reads empty.
    static func withBytes<Result>(
        of path: String, capacity: Int = 512, _ body: (UnsafeBufferPointer<UInt8>) -> Result?
    ) -> Result? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            guard count > 0 else { return nil }
            return body(UnsafeBufferPointer(rebasing: buffer[..<count]))
        }
    }

    /// The file's text (its first `capacity` bytes), or nil.
    static func text(of path: String, capacity: Int = 512) -> String? {
        withBytes(of: path, capacity: capacity) { String(decoding: $0, as: UTF8.self) }
    }
}
