#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Who blocks: the threads whose stacks a stall report shows, captured while
/// the stall lasts (on the watchdog thread), without changing what they do.
///
/// Every thread but the watchdog and the blocking lanes' (``BlockingThreads``)
/// is looked at: one asleep in the kernel is read from memory
/// (``BlockedStackCapture``), one running is signalled (``ThreadStackCapture``).
/// A thread with no `swift_job_run` frame runs no Swift job and is dropped
/// before symbolication. The main actor's thread is the one draining the main
/// queue, which after `dispatch_main()` is any worker thread, drain by drain;
/// the pool's are the others running a Swift job.
///
/// Costs nothing while no stall lasts. Stacks are taken on Linux only;
/// elsewhere the lists are empty.
struct StallBlame {
    private let canCapture: Bool
    private let ownThread: UInt64

    /// Call on the watchdog thread: it is left out of the suspects.
    init() {
        #if os(Linux) && canImport(Glibc)
        canCapture = ThreadStacks.prepare()
        #else
        canCapture = false
        #endif
        ownThread = CurrentThread.id
    }

    /// What a capture found: the threads blocking each kind, and their
    /// run-queue waits read right after the capture, before the slow
    /// symbolication (where ``StallHostDelay`` starts watching).
    struct Blamed {
        var threads: [ConcurrencyStall.Kind: [ConcurrencyStall.BlockedThread]] = [:]
        var waits = StallHostDelay.Reading(at: 0, waits: [:])
    }

    /// The threads blocking each of `kinds`, with their frames: the main
    /// actor's are those draining the main queue (``ThreadStacks`` tells).
    func blockingThreads(for kinds: Set<ConcurrencyStall.Kind>) -> Blamed {
        #if os(Linux) && canImport(Glibc)
        guard canCapture else { return Blamed() }
        let mainQueue = ThreadStackCapture.mainQueueLabel
        let regions = MemoryRegions.current()
        var captured: [(id: UInt64, capture: ThreadStackCapture.Capture, call: Int?)] = []
        for id in ThreadStacks.processThreads().filter({ $0 != ownThread }).prefix(256) {
            // Asked just before each capture, not once before the loop: a
            // capture can wait 200 ms, and a lane may start work meanwhile.
            if BlockingThreads.isRunning(id) { continue }
            guard let (capture, call) = ThreadStacks.capture(thread: id, regions: regions, mainQueue: mainQueue),
                capture.addresses.contains(where: ThreadStacks.isInSwiftJobRun)
            else { continue }
            captured.append((id, capture, call))
        }
        let waits = StallHostDelay.read(threads: captured.map(\.id), now: MonotonicClock.now)
        // Symbolicate after every capture, so the threads are seen close together.
        var result: [ConcurrencyStall.Kind: [ConcurrencyStall.BlockedThread]] = [:]
        for kind in kinds {
            var threads: [ConcurrencyStall.BlockedThread] = []
            for (id, capture, call) in captured where (capture.queueLabel == mainQueue) == (kind == .mainActorBlocked) {
                let lines = Symbolicator.threadLines(of: capture.addresses, systemCall: call)
                threads.append(ConcurrencyStall.BlockedThread(id: id, backtrace: lines))
            }
            result[kind] = threads
        }
        return Blamed(threads: result, waits: waits)
        #else
        return Blamed()
        #endif
    }

}
