#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
/// This process's memory, read through `/proc/self/mem`: a read of an
/// address that is not mapped (a thread that ended, its stack gone) fails
/// with an error instead of a crash.
struct ProcessMemory: Sendable {
    let descriptor: Int32

    /// Opened once, never closed.
    static let shared: ProcessMemory? = {
        let descriptor = open("/proc/self/mem", O_RDONLY | O_CLOEXEC)
        return descriptor >= 0 ? ProcessMemory(descriptor: descriptor) : nil
    }()

    /// Bytes read (0 where nothing could be).
    func read(at address: UInt, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard address <= UInt(Int64.max) else { return 0 }
        let count = pread(descriptor, buffer.baseAddress, buffer.count, off_t(address))
        return max(count, 0)
    }
}
#endif
