#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Names for the system calls a thread blocks in, so a stall report says
/// `system call poll`, not `system call 7`; and C library symbol names as a
/// reader knows them (`__GI___poll` is `poll`).
enum SystemCalls {
    static func name(_ number: Int) -> String {
        table[number] ?? "number \(number)"
    }

    #if arch(x86_64)
    private static let table: [Int: String] = [
        0: "read", 1: "write", 2: "open", 3: "close", 7: "poll", 17: "pread64", 18: "pwrite64", 19: "readv",
        20: "writev", 23: "select", 34: "pause", 35: "nanosleep", 42: "connect", 43: "accept", 44: "sendto",
        45: "recvfrom", 46: "sendmsg", 47: "recvmsg", 61: "wait4", 74: "fsync", 75: "fdatasync", 202: "futex",
        230: "clock_nanosleep", 232: "epoll_wait", 257: "openat", 270: "pselect6", 271: "ppoll", 281: "epoll_pwait",
        288: "accept4", 441: "epoll_pwait2", 449: "futex_waitv",
    ]
    #elseif arch(arm64)
    private static let table: [Int: String] = [
        22: "epoll_pwait", 56: "openat", 57: "close", 63: "read", 64: "write", 65: "readv", 66: "writev",
        67: "pread64", 68: "pwrite64", 72: "pselect6", 73: "ppoll", 82: "fsync", 83: "fdatasync", 98: "futex",
        101: "nanosleep", 115: "clock_nanosleep", 202: "accept", 203: "connect", 206: "sendto", 207: "recvfrom",
        211: "sendmsg", 212: "recvmsg", 242: "accept4", 260: "wait4", 441: "epoll_pwait2", 449: "futex_waitv",
    ]
    #else
    private static let table: [Int: String] = [:]
    #endif

    /// `__GI___poll` → `poll`, `__libc_read` → `read`, `__nanosleep` → `nanosleep`.
    static func plainName(_ symbol: String) -> String {
        var name = Substring(symbol)
        if let at = name.firstIndex(of: "@") { name = name[..<at] }
        if name.hasPrefix("__GI_") { name = name.dropFirst(5) }
        name = name.drop { $0 == "_" }
        if name.hasPrefix("libc_") { name = name.dropFirst(5) }
        return name.isEmpty ? symbol : String(name)
    }

    /// The function the code called to block: of the innermost frames that
    /// lie in the same library as the first (the C library, for a system
    /// call), the outermost, by its exported name (`usleep`, `poll`, `read`).
    /// `dladdr` names it: the C library exports what programs call.
    ///
    /// When none of them has an exported name (`sem_timedwait` reaches the
    /// kernel through glibc's internal functions only, and may tail-call
    /// them), the caller's call instruction names it (``CallTarget``).
    static func calledFunction(in addresses: [UInt]) -> String? {
        guard let first = addresses.first, let image = symbol(at: first)?.image else { return nil }
        var called: String?
        for (index, address) in addresses.enumerated() {
            // Return addresses point after the call: look up the call itself.
            guard let found = symbol(at: index == 0 ? address : address &- 1), found.image == image else {
                if called == nil, index > 0 { called = calledBefore(returnAddress: address, into: image) }
                break
            }
            if let name = found.name { called = plainName(name) }
        }
        return called
    }

    /// The name of the function in `image` that the call just before
    /// `returnAddress` called, if the call says.
    private static func calledBefore(returnAddress: UInt, into image: UInt) -> String? {
        #if os(Linux)
        guard let memory = ProcessMemory.shared,
            let target = CallTarget.function(calledBefore: returnAddress, read: { memory.read(at: $0, into: $1) }),
            let found = symbol(at: target), found.image == image, let name = found.name
        else { return nil }
        return plainName(name)
        #else
        return nil
        #endif
    }

    /// `dladdr(address, Dl_info *)`; `Dl_info` is four pointers (file name,
    /// file base, symbol name, symbol address). Glibc's module imports neither.
    private typealias DladdrFunction = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32

    private static let dladdr: DladdrFunction? = {
        let handle = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
        return dlsym(handle, "dladdr").map { unsafeBitCast($0, to: DladdrFunction.self) }
    }()

    /// The image (its base address) and the nearest exported symbol's name at `address`.
    private static func symbol(at address: UInt) -> (image: UInt, name: String?)? {
        guard let dladdr, let pointer = UnsafeRawPointer(bitPattern: address) else { return nil }
        var info: (UInt, UInt, UInt, UInt) = (0, 0, 0, 0)
        guard withUnsafeMutableBytes(of: &info, { dladdr(pointer, $0.baseAddress) }) != 0 else { return nil }
        let name = UnsafePointer<CChar>(bitPattern: info.2).map { String(cString: $0) }
        return (info.1, name)
    }
}
