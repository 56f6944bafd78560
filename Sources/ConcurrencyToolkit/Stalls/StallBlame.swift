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
/// the stall lasts (on the watchdog thread).
///
/// Every thread of the process (from `/proc/self/task`) but the watchdog and
/// the threads running blocking work (``BlockingThreads``: executor lanes,
/// which are never the pool's, and whose `poll` or `usleep` a signal would
/// cut short) is captured, one by one, with the Dispatch queue it drains; a thread whose
/// stack has no `swift_job_run` frame runs no Swift job and is dropped
/// (found with `dladdr`, before any symbolication, the slow part). Then
/// - main actor: the thread draining the main queue. That is the main
///   thread only while the main thread runs a run loop: an async `main`
///   calls `dispatch_main()`, and from then on a worker thread drains it.
/// - pool: the threads running a Swift job that are not draining the main queue.
///
/// Listing every thread costs a signal per thread, once per stall: nothing
/// while no stall lasts. Stacks are taken on Linux only
/// (``ThreadStackCapture``); elsewhere the lists are empty.
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

    func blockingThreads(for kinds: Set<ConcurrencyStall.Kind>) -> [ConcurrencyStall.Kind: [ConcurrencyStall.BlockedThread]] {
        #if os(Linux) && canImport(Glibc) && canImport(Runtime)
        guard canCapture, #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return [:] }
        var captured: [(id: UInt64, capture: ThreadStackCapture.Capture)] = []
        for id in Self.processThreads().filter({ $0 != ownThread }).prefix(256) {
            // Asked just before each signal, not once before the loop: a
            // capture can wait 200 ms, and a lane may start work meanwhile.
            if BlockingThreads.isRunning(id) { continue }
            if let capture = ThreadStackCapture.capture(thread: Int32(truncatingIfNeeded: id)),
                capture.addresses.contains(where: Self.isInSwiftJobRun)
            {
                captured.append((id, capture))
            }
        }
        // Symbolicate after every capture, so the threads are interrupted close together.
        let mainQueue = ThreadStackCapture.mainQueueLabel
        let images = ImageMap.capture()
        var result: [ConcurrencyStall.Kind: [ConcurrencyStall.BlockedThread]] = [:]
        for kind in kinds {
            var threads: [ConcurrencyStall.BlockedThread] = []
            for (id, capture) in captured where (capture.queueLabel == mainQueue) == (kind == .mainActorBlocked) {
                let lines = BacktraceSymbolication.stallFrames(of: capture.addresses, images: images).lines
                threads.append(ConcurrencyStall.BlockedThread(id: id, backtrace: lines))
            }
            result[kind] = threads
        }
        return result
        #else
        return [:]
        #endif
    }

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
    /// nearest exported symbol at or below it is that function.
    private static func isInSwiftJobRun(_ address: UInt) -> Bool {
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
