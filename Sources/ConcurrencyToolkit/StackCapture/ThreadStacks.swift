#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Another thread's stack, taken without changing what the thread does:
/// the one entry point both detectors use (the stall detector for the
/// threads that block, the contention detector for an actor's holder).
///
/// A thread asleep in the kernel (a `read`, `poll`, `usleep`, a lock) is read
/// from memory (``BlockedStackCapture``): no signal, no stop, the call goes on
/// as if nobody looked. Only a running thread, in user space where a signal
/// interrupts no call, is signalled (``ThreadStackCapture``), with
/// ``StackCapture/signal``. Linux only; elsewhere nothing is captured.
enum ThreadStacks {
    #if os(Linux) && canImport(Glibc)
    /// Installs the capture signal's handler (once; later calls are cheap).
    /// False where a running thread's stack cannot be captured.
    static func prepare() -> Bool {
        ThreadStackCapture.prepare(signal: StackCapture.signal)
    }

    /// Thread `id`'s stack, innermost first. Call ``prepare()`` first.
    static func stack(of id: UInt64) -> [UInt]? {
        capture(thread: id, regions: MemoryRegions.current(), mainQueue: 0)?.0.addresses
    }

    /// One thread's stack, and the system call it sleeps in. A thread that
    /// wakes or falls asleep while it is looked at is looked at again, twice
    /// at most. A thread read from memory is labelled `mainQueue` when its
    /// stack holds the main queue (it drains it) or it is the process's main
    /// thread; a signalled one says which queue it drains itself.
    static func capture(thread id: UInt64, regions: MemoryRegions, mainQueue: UInt) -> (ThreadStackCapture.Capture, Int?)? {
        for _ in 0..<3 {
            switch ThreadStatus.of(thread: id) {
            case .unknown:
                return nil
            case .blocked(let call):
                guard let found = BlockedStackCapture.capture(thread: id, call: call, regions: regions, isLastFrame: isInSwiftJobRun) else { continue }
                let label = found.drainsMainQueue || id == UInt64(getpid()) ? mainQueue : 0
                return (ThreadStackCapture.Capture(addresses: found.frames, queueLabel: label), call.number >= 0 ? call.number : nil)
            case .running:
                guard
                    let capture = ThreadStackCapture.capture(
                        thread: Int32(truncatingIfNeeded: id), onlyIfRunning: true, regions: regions, isLastFrame: isInSwiftJobRun)
                else {
                    continue
                }
                return (capture, nil)
            }
        }
        return nil
    }

    /// `dladdr(address, Dl_info *)`; `Dl_info` is four pointers (file name,
    /// file base, symbol name, symbol address). Glibc's module imports neither.
    private typealias DladdrFunction = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer?) -> Int32

    private static let symbols: (dladdr: DladdrFunction, swiftJobRun: UInt)? = {
        let handle = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
        guard let dladdr = dlsym(handle, "dladdr"), let jobRun = dlsym(handle, "swift_job_run") else { return nil }
        return (unsafeBitCast(dladdr, to: DladdrFunction.self), UInt(bitPattern: jobRun))
    }()

    /// Whether `address` (a return address) lies in `swift_job_run`: the
    /// nearest exported symbol at or below it is that function. The last
    /// frame a walk of a thread running a Swift job looks for.
    static func isInSwiftJobRun(_ address: UInt) -> Bool {
        guard let symbols, let pointer = UnsafeRawPointer(bitPattern: address &- 1) else { return false }
        var info: (UInt, UInt, UInt, UInt) = (0, 0, 0, 0)
        let found = withUnsafeMutableBytes(of: &info) { symbols.dladdr(pointer, $0.baseAddress) }
        return found != 0 && info.3 == symbols.swiftJobRun
    }

    /// The ids of this process's threads now.
    static func processThreads() -> [UInt64] {
        guard let directory = opendir("/proc/self/task") else { return [] }
        defer { closedir(directory) }
        var ids: [UInt64] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if let id = UInt64(name) { ids.append(id) }
        }
        return ids
    }
    #endif
}
