#if os(Linux) && canImport(Glibc)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Captures another thread's stack while it runs (or blocks): the watchdog
/// sends the thread a signal; the handler, on that thread, writes the raw
/// return addresses into storage allocated up front and posts a semaphore;
/// the watchdog then symbolicates them. One capture at a time (a lock
/// makes concurrent callers take turns).
///
/// **The signal** is `SIGPROF` by default (``StallDetector/captureSignal``
/// changes it before the first start): libdispatch blocks every
/// asynchronous signal in its worker threads — the cooperative pool's
/// threads on Linux — except a few, `SIGPROF` among them (for profilers).
/// The handler is installed once and stays installed: it is inert unless a
/// capture is armed, and **chains** every signal it did not ask for to the
/// handler installed before it (a profiler's, say). A signal is ours only
/// when a capture is armed and it came from `tgkill` in this process.
///
/// **In the handler** (async-signal-safe): an atomic exchange, glibc's
/// `backtrace()`, `dispatch_queue_get_label(NULL)` (a thread-local read:
/// which queue the thread drains, so the thread running the main actor is
/// known even after `dispatch_main()` handed the main queue to a worker
/// thread, as an async `main` does on Linux), stores into preallocated memory, `sem_post` (which POSIX
/// lists as async-signal-safe). `backtrace()` is not on POSIX's list only
/// because its first call loads libgcc's unwinder with `dlopen` (which
/// allocates); ``prepare(signal:)`` calls it once first. After that it
/// unwinds with the DWARF call-frame information (so frames of libc, built
/// without frame pointers, are walked too) through `dl_iterate_phdr`, whose
/// lock is recursive and held only briefly by other threads, and allocates
/// nothing. The stress test takes thousands of captures from threads that
/// allocate and lock without pause.
enum ThreadStackCapture {
    private typealias BacktraceFunction = @convention(c) (UnsafeMutablePointer<UnsafeMutableRawPointer?>?, Int32) -> Int32
    private typealias TgkillFunction = @convention(c) (pid_t, pid_t, Int32) -> Int32
    private typealias QueueLabelFunction = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?

    /// One thread's capture: its stack, and the label of the Dispatch queue
    /// it was draining (the main queue's, for the thread running the main actor).
    struct Capture {
        var addresses: [UInt]
        var queueLabel: UInt
    }

    /// Storage the handler writes into: allocated once, never freed.
    private final class Slot: @unchecked Sendable {
        // @unchecked: the raw memory is written by the handler only while
        // `armed` was exchanged from true, and read by the watchdog only after
        // `done` was posted.
        static let capacity = 128
        let armed = Atomic<Bool>(false)
        let addresses = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: capacity)
        let count = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        let programCounter = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
        let queueLabel = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
        let done = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 1)
        let backtrace: BacktraceFunction
        let tgkill: TgkillFunction
        let queueLabelOf: QueueLabelFunction
        /// The main queue's label pointer: the thread draining the main queue reports it.
        let mainQueueLabel: UInt
        let processID = getpid()

        init?() {
            let handle = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
            guard let backtrace = dlsym(handle, "backtrace"), let tgkill = dlsym(handle, "tgkill"),
                let label = dlsym(handle, "dispatch_queue_get_label"), let mainQueue = dlsym(handle, "_dispatch_main_q")
            else { return nil }
            self.backtrace = unsafeBitCast(backtrace, to: BacktraceFunction.self)
            self.tgkill = unsafeBitCast(tgkill, to: TgkillFunction.self)
            self.queueLabelOf = unsafeBitCast(label, to: QueueLabelFunction.self)
            self.mainQueueLabel = UInt(bitPattern: queueLabelOf(OpaquePointer(mainQueue)))
            sem_init(done, 0, 0)
            previous.initialize(to: sigaction())
        }
    }

    private static let installed = Lock<(slot: Slot?, signal: Int32)>((nil, 0))
    /// Set once, before the handler is installed; read by the handler.
    nonisolated(unsafe) private static var slot: Slot?

    /// Installs the handler for `signal` (once per process; later calls with
    /// another signal keep the first) and warms `backtrace()` up. Returns
    /// false where it cannot (no `backtrace` in this libc).
    static func prepare(signal: Int32) -> Bool {
        installed.withLock { installed in
            if installed.slot != nil { return true }
            guard let slot = Slot() else { return false }
            var warm = [UnsafeMutableRawPointer?](repeating: nil, count: 4)
            _ = slot.backtrace(&warm, 4)  // loads libgcc's unwinder now, not in a handler
            Self.slot = slot
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = signalHandler
            action.sa_flags = SA_SIGINFO | SA_RESTART
            sigemptyset(&action.sa_mask)
            guard sigaction(signal, &action, slot.previous) == 0 else { return false }
            installed = (slot, signal)
            return true
        }
    }

    /// The stack of thread `id` (innermost first, the interrupted instruction
    /// first), or nil if it did not answer within `timeout` nanoseconds (a
    /// thread that blocks the signal, or one that ended).
    ///
    /// With `onlyIfRunning`, the thread is signalled only if `/proc` says it
    /// runs (so it is in user space, where a signal interrupts no system
    /// call), asked again just before the signal.
    static func capture(thread id: Int32, timeout: UInt64 = 200_000_000, onlyIfRunning: Bool = false) -> Capture? {
        // One slot: captures from two threads (two watchdogs' lifetimes
        // overlapping, a test) take turns. Held across the wait on purpose:
        // the handler never takes it, so it cannot deadlock with it.
        oneAtATime.withLock { count in
            count &+= 1
            #if os(Linux)
            if onlyIfRunning && ThreadStatus.of(thread: UInt64(id)) != .running { return nil }
            #endif
            return captureAlone(thread: id, timeout: timeout)
        }
    }

    /// Captures whose signal found the thread at a system call after all (it
    /// entered the kernel between the look at `/proc` and the signal): the
    /// call was interrupted, or restarted where `SA_RESTART` restarts it.
    static var interruptedCalls: Int { interrupted.load(ordering: .relaxed) }
    private static let interrupted = Atomic<Int>(0)

    /// Guards the slot; counts captures (a `Lock<Void>` would put its empty
    /// value at the address of its header, which ThreadSanitizer then reports).
    private static let oneAtATime = Lock(0)

    private static func captureAlone(thread id: Int32, timeout: UInt64) -> Capture? {
        let (installedSlot, signal) = installed.withLock { ($0.slot, $0.signal) }
        guard let slot = installedSlot else { return nil }
        slot.armed.store(true, ordering: .sequentiallyConsistent)
        guard slot.tgkill(slot.processID, id, signal) == 0 else {
            if slot.armed.exchange(false, ordering: .sequentiallyConsistent) { return nil }
            while sem_wait(slot.done) != 0 {}  // the handler took it after all
            return nil
        }
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let end = UInt64(deadline.tv_nsec) + timeout
        deadline.tv_sec += Int(end / 1_000_000_000)
        deadline.tv_nsec = Int(end % 1_000_000_000)
        while sem_timedwait(slot.done, &deadline) != 0 {
            guard errno == EINTR else {
                // Timed out: disarm, unless the handler has just taken the capture.
                if slot.armed.exchange(false, ordering: .sequentiallyConsistent) { return nil }
                while sem_wait(slot.done) != 0 {}
                break
            }
        }
        let count = Int(max(0, slot.count.pointee))
        var frames = (0..<count).map { UInt(bitPattern: slot.addresses[$0]) }
        // Drop the handler's own frames: everything before the interrupted instruction.
        if let start = frames.firstIndex(of: slot.programCounter.pointee) {
            frames.removeFirst(start)
        }
        if Self.isAtSystemCall(slot.programCounter.pointee) { interrupted.add(1, ordering: .relaxed) }
        return Capture(addresses: frames, queueLabel: slot.queueLabel.pointee)
    }

    /// Whether the instruction at, or just before, `address` is `syscall`
    /// (x86-64; `svc #0` on arm64): where a thread stands when a signal
    /// interrupted its system call (the kernel moves it back onto the
    /// instruction when it restarts the call).
    private static func isAtSystemCall(_ address: UInt) -> Bool {
        guard let memory = ProcessMemory.shared, address > 4 else { return false }
        var bytes: (UInt32, UInt32) = (0, 0)
        guard withUnsafeMutableBytes(of: &bytes, { memory.read(at: address &- 4, into: $0) }) == 8 else { return false }
        #if arch(x86_64)
        return withUnsafeBytes(of: &bytes) { $0[2] == 0x0F && $0[3] == 0x05 || $0[4] == 0x0F && $0[5] == 0x05 }
        #elseif arch(arm64)
        return bytes.0 == 0xD400_0001 || bytes.1 == 0xD400_0001
        #else
        return false
        #endif
    }

    /// The main queue's label pointer, to compare with ``Capture/queueLabel``; 0 before ``prepare(signal:)``.
    static var mainQueueLabel: UInt { installed.withLock { $0.slot?.mainQueueLabel ?? 0 } }

    /// Runs on the signalled thread: async-signal-safe code only.
    private static let signalHandler: @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = {
        signal, info, context in
        guard let slot = ThreadStackCapture.slot else { return }
        if let info, info.pointee.si_code == SI_TKILL, info.pointee._sifields._kill.si_pid == slot.processID,
            slot.armed.exchange(false, ordering: .sequentiallyConsistent)
        {
            slot.programCounter.pointee = programCounter(context)
            // DISPATCH_CURRENT_QUEUE_LABEL: a thread-local read, no lock.
            slot.queueLabel.pointee = UInt(bitPattern: slot.queueLabelOf(nil))
            slot.count.pointee = slot.backtrace(slot.addresses, Int32(Slot.capacity))
            sem_post(slot.done)
            return
        }
        // Not ours: chain to the handler installed before.
        let previous = slot.previous.pointee
        if previous.sa_flags & SA_SIGINFO != 0 {
            previous.__sigaction_handler.sa_sigaction?(signal, info, context)
        } else if let handler = previous.__sigaction_handler.sa_handler,
            UInt(bitPattern: unsafeBitCast(handler, to: Int.self)) > 1  // not SIG_DFL (0) or SIG_IGN (1)
        {
            handler(signal)
        }
    }

    /// The interrupted instruction's address, from the signal's context.
    private static func programCounter(_ context: UnsafeMutableRawPointer?) -> UInt {
        guard let context else { return 0 }
        let machine = context.assumingMemoryBound(to: ucontext_t.self)
        #if arch(x86_64)
        return UInt(bitPattern: Int(machine.pointee.uc_mcontext.gregs.16))  // REG_RIP
        #elseif arch(arm64)
        return UInt(machine.pointee.uc_mcontext.pc)
        #else
        return 0
        #endif
    }
}
#endif
