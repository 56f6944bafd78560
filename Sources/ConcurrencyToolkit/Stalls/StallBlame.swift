#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(Runtime)
import Runtime
#endif

/// Who blocks: the threads whose stacks a stall report shows, captured while
/// the stall lasts (on the watchdog thread), without changing what they do.
///
/// Every thread of the process (from `/proc/self/task`) but the watchdog and
/// the threads running blocking work (``BlockingThreads``: executor lanes,
/// never the pool's) is looked at, one by one:
/// - asleep in the kernel (a `read`, `poll`, `usleep`, a lock): its stack is
///   read from memory (``BlockedStackCapture``). No signal, no stop: the
///   call goes on as if nobody looked. The report names the call.
/// - running: it is signalled (``ThreadStackCapture``). It is in user space,
///   where a signal interrupts no call; only a thread that enters the kernel
///   in the microseconds between the look and the signal can be interrupted
///   (``ThreadStackCapture/interruptedCalls`` counts those).
///
/// A thread whose stack has no `swift_job_run` frame runs no Swift job and
/// is dropped (found with `dladdr`, before any symbolication, the slow
/// part). Then
/// - main actor: the thread draining the main queue (for a signalled thread,
///   its Dispatch queue says so; for one read from memory, it is the thread
///   that ran the last main-actor job). That is the main thread only while
///   the main thread runs a run loop: an async `main` calls
///   `dispatch_main()`, and from then on a worker thread drains it.
/// - pool: the threads running a Swift job that are not draining the main queue.
///
/// Costs nothing while no stall lasts. Stacks are taken on Linux only;
/// elsewhere the lists are empty.
///
/// ```swift
/// let threads = StallBlame(signal: SIGPROF).blockingThreads(for: [.mainActorBlocked])
/// ```
struct StallBlame {
    private let canCapture: Bool
    private let ownThread: UInt64

    /// Call on the watchdog thread: it is left out of the suspects.
    init(signal: Int32) {
        #if os(Linux) && canImport(Glibc) && canImport(Runtime)
        canCapture = ThreadStackCapture.prepare(signal: signal)
        #else
        canCapture = false
        #endif
        ownThread = CurrentThread.id
    }

    /// The threads blocking each of `kinds`, with their frames.
    /// `mainActorThread` is the thread that last ran a main-actor job (the
    /// main probe notes it): a thread asleep in the kernel is captured from
    /// memory, which cannot tell which queue it drains, so that thread is
    /// the main actor's.
    func blockingThreads(
        for kinds: Set<ConcurrencyStall.Kind>, mainActorThread: UInt64? = nil
    ) -> [ConcurrencyStall.Kind: [ConcurrencyStall.BlockedThread]] {
        #if os(Linux) && canImport(Glibc) && canImport(Runtime)
        guard canCapture, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return [:] }
        let mainQueue = ThreadStackCapture.mainQueueLabel
        let regions = MemoryRegions.current()
        var captured: [(id: UInt64, capture: ThreadStackCapture.Capture, call: Int?)] = []
        for id in Self.processThreads().filter({ $0 != ownThread }).prefix(256) {
            // Asked just before each capture, not once before the loop: a
            // capture can wait 200 ms, and a lane may start work meanwhile.
            if BlockingThreads.isRunning(id) { continue }
            guard let (capture, call) = Self.capture(thread: id, regions: regions, mainActorThread: mainActorThread, mainQueue: mainQueue),
                capture.addresses.contains(where: Self.isInSwiftJobRun)
            else { continue }
            captured.append((id, capture, call))
        }
        // Symbolicate after every capture, so the threads are seen close together.
        let images = ImageMap.capture()
        var result: [ConcurrencyStall.Kind: [ConcurrencyStall.BlockedThread]] = [:]
        for kind in kinds {
            var threads: [ConcurrencyStall.BlockedThread] = []
            for (id, capture, call) in captured where (capture.queueLabel == mainQueue) == (kind == .mainActorBlocked) {
                let lines = BacktraceSymbolication.stallFrames(of: capture.addresses, images: images, systemCall: call)
                threads.append(ConcurrencyStall.BlockedThread(id: id, backtrace: lines))
            }
            result[kind] = threads
        }
        return result
        #else
        return [:]
        #endif
    }

    #if os(Linux) && canImport(Glibc) && canImport(Runtime)
    /// Thread `id`'s stack, innermost first, taken as a stall's are: read
    /// from memory if it sleeps in the kernel, signalled only if it runs.
    /// Call ``ThreadStackCapture/prepare(signal:)`` first.
    static func stack(of id: UInt64) -> [UInt]? {
        capture(thread: id, regions: MemoryRegions.current(), mainActorThread: nil, mainQueue: 0)?.0.addresses
    }

    /// One thread's stack, and the system call it sleeps in. A thread asleep
    /// in the kernel is read from memory and never signalled; only a running
    /// thread (in user space, where a signal interrupts no call) is signalled.
    /// A thread that wakes or falls asleep while it is looked at is looked at
    /// again, twice at most.
    private static func capture(
        thread id: UInt64, regions: MemoryRegions, mainActorThread: UInt64?, mainQueue: UInt
    ) -> (ThreadStackCapture.Capture, Int?)? {
        for _ in 0..<3 {
            switch ThreadStatus.of(thread: id) {
            case .unknown:
                return nil
            case .blocked(let call):
                guard let frames = BlockedStackCapture.capture(thread: id, call: call, regions: regions, isLastFrame: isInSwiftJobRun) else { continue }
                let label = id == mainActorThread ? mainQueue : 0
                return (ThreadStackCapture.Capture(addresses: frames, queueLabel: label), call.number >= 0 ? call.number : nil)
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
    #endif

    #if os(Linux) && canImport(Glibc)
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
    /// frame a stall's walk looks for (``StallCaptureCost`` times it too).
    static func isInSwiftJobRun(_ address: UInt) -> Bool {
        guard let symbols, let pointer = UnsafeRawPointer(bitPattern: address &- 1) else { return false }
        var info: (UInt, UInt, UInt, UInt) = (0, 0, 0, 0)
        let found = withUnsafeMutableBytes(of: &info) { symbols.dladdr(pointer, $0.baseAddress) }
        return found != 0 && info.3 == symbols.swiftJobRun
    }

    /// The ids of this process's threads now.
    private static func processThreads() -> [UInt64] {
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
