#if os(Linux) && canImport(Glibc)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Captures another thread's stack while it runs: the watchdog signals the
/// thread; the handler copies its registers and stack into storage allocated
/// up front and posts a semaphore; the watchdog unwinds the copy
/// (``StackWalk``) and symbolicates it. One capture at a time.
///
/// **The signal** is `SIGPROF` by default (``StackCapture/signal``), one of
/// the few libdispatch leaves unblocked in its worker threads. The handler
/// stays installed, inert unless a capture is armed, and **chains** every
/// signal that is not ours (armed, and from `tgkill` in this process) to the
/// handler installed before it.
///
/// **In the handler** only what cannot fault or block: an atomic exchange,
/// register reads from the signal's context, `dispatch_queue_get_label(NULL)`
/// (which queue the thread drains, so the main actor's thread is known after
/// `dispatch_main()`), one `pread` of `/proc/self/mem` (unmapped memory
/// returns fewer bytes, never a fault), `sem_post`; `errno` is restored. Only
/// the thread the capture is armed for (`gettid`) answers, so a late signal
/// cannot answer for another. It does **not** unwind: glibc's `backtrace()`
/// follows call-frame information that can be wrong for the stopped
/// instruction and crash the program it watches; the copy is unwound on the
/// watchdog, every read of code through ``ProcessMemory``.
enum ThreadStackCapture {
    private typealias TgkillFunction = @convention(c) (pid_t, pid_t, Int32) -> Int32
    private typealias GettidFunction = @convention(c) () -> pid_t
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
        /// How much of the stack the handler copies, from the stack pointer up.
        static let stackBytes = 64 * 1024
        let armed = Atomic<Bool>(false)
        let stack = UnsafeMutableRawPointer.allocate(byteCount: stackBytes, alignment: MemoryLayout<UInt>.alignment)
        let stackRead = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        let programCounter = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
        let stackPointer = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
        let framePointer = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
        let queueLabel = UnsafeMutablePointer<UInt>.allocate(capacity: 1)
        let done = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 1)
        /// The thread the armed capture is for (set before `armed`).
        let target = Atomic<Int32>(0)
        let tgkill: TgkillFunction
        /// glibc's `gettid` (2.30+; Swift does not import it); nil: not checked.
        let currentThread: GettidFunction?
        let queueLabelOf: QueueLabelFunction
        /// The main queue's label pointer: the thread draining the main queue reports it.
        let mainQueueLabel: UInt
        let processID = getpid()
        /// `/proc/self/mem`, which the handler reads the stack through.
        let memory: ProcessMemory

        init?() {
            let handle = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
            guard let memory = ProcessMemory.shared, let tgkill = dlsym(handle, "tgkill"),
                let label = dlsym(handle, "dispatch_queue_get_label"), let mainQueue = dlsym(handle, "_dispatch_main_q")
            else { return nil }
            self.memory = memory
            self.tgkill = unsafeBitCast(tgkill, to: TgkillFunction.self)
            self.currentThread = dlsym(handle, "gettid").map { unsafeBitCast($0, to: GettidFunction.self) }
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
    /// another signal keep the first). Returns false where it cannot (no
    /// `/proc/self/mem` to read stacks through, or no `tgkill`).
    static func prepare(signal: Int32) -> Bool {
        installed.withLock { installed in
            if installed.slot != nil { return true }
            guard let slot = Slot() else { return false }
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
    /// call), asked again just before the signal. `regions` says which
    /// addresses are code (read now if not given); `isLastFrame`: see
    /// ``StackWalk/frames(programCounter:stackPointer:framePointer:words:maxFrames:isInnermostCode:isLastFrame:callReaches:isReturnAddress:)``.
    static func capture(
        thread id: Int32, timeout: UInt64 = 200_000_000, onlyIfRunning: Bool = false, regions: MemoryRegions? = nil,
        isLastFrame: ((UInt) -> Bool)? = nil
    ) -> Capture? {
        // One slot: captures from two threads (two watchdogs' lifetimes
        // overlapping, a test) take turns. Held across the wait and the walk
        // on purpose: the handler never takes it, so it cannot deadlock with it.
        oneAtATime.withLock { count in
            count &+= 1
            #if os(Linux)
            if onlyIfRunning && ThreadStatus.of(thread: UInt64(id)) != .running { return nil }
            #endif
            return captureAlone(thread: id, timeout: timeout, regions: regions, isLastFrame: isLastFrame)
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

    private static func captureAlone(
        thread id: Int32, timeout: UInt64, regions: MemoryRegions?, isLastFrame: ((UInt) -> Bool)?
    ) -> Capture? {
        let (installedSlot, signal) = installed.withLock { ($0.slot, $0.signal) }
        guard let slot = installedSlot else { return nil }
        slot.target.store(id, ordering: .sequentiallyConsistent)
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
        let programCounter = slot.programCounter.pointee
        if Self.isAtSystemCall(programCounter) { interrupted.add(1, ordering: .relaxed) }
        let frames = unwind(slot: slot, regions: regions ?? MemoryRegions.current(), isLastFrame: isLastFrame)
        return Capture(addresses: frames, queueLabel: slot.queueLabel.pointee)
    }

    /// The frames in the handler's copy of the stack: from the frame pointer
    /// where it points at a frame record (Swift code keeps one), else by the
    /// scan a blocked thread's stack is walked with (the C library's code,
    /// which uses the register for other things).
    private static func unwind(slot: Slot, regions: MemoryRegions, isLastFrame: ((UInt) -> Bool)?) -> [UInt] {
        let programCounter = slot.programCounter.pointee
        let stackPointer = slot.stackPointer.pointee
        var wordCount = max(0, slot.stackRead.pointee) / MemoryLayout<UInt>.size
        // The read goes on past the stack's end into whatever is mapped
        // next (another thread's stack, even through its guard page): only
        // the words inside the stack's own mapping are this thread's.
        if let stack = regions.region(containing: stackPointer) {
            wordCount = min(wordCount, Int((stack.end &- stackPointer) / UInt(MemoryLayout<UInt>.size)))
        }
        let words = UnsafeBufferPointer(start: slot.stack.assumingMemoryBound(to: UInt.self), count: wordCount)
        return StackWalk.frames(
            programCounter: programCounter, stackPointer: stackPointer, framePointer: slot.framePointer.pointee,
            words: words, regions: regions, memory: slot.memory, isLastFrame: isLastFrame)
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
            slot.currentThread.map({ $0() == slot.target.load(ordering: .sequentiallyConsistent) }) ?? true,
            slot.armed.exchange(false, ordering: .sequentiallyConsistent)
        {
            let savedErrno = errno  // the interrupted code may be about to read it
            let registers = registers(context)
            slot.programCounter.pointee = registers.programCounter
            slot.stackPointer.pointee = registers.stackPointer
            slot.framePointer.pointee = registers.framePointer
            // DISPATCH_CURRENT_QUEUE_LABEL: a thread-local read, no lock.
            slot.queueLabel.pointee = UInt(bitPattern: slot.queueLabelOf(nil))
            // The stack from the stack pointer up, through /proc/self/mem:
            // where nothing is mapped the read stops short instead of faulting
            // (it does go on into the next mapping; `unwind` keeps the stack's).
            slot.stackRead.pointee = registers.stackPointer == 0 ? 0
                : max(0, pread(slot.memory.descriptor, slot.stack, Slot.stackBytes, off_t(Int(bitPattern: registers.stackPointer))))
            sem_post(slot.done)
            errno = savedErrno
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

    /// The interrupted instruction's address, stack pointer and frame
    /// pointer, from the signal's context (zeros where unknown).
    private static func registers(_ context: UnsafeMutableRawPointer?) -> (
        programCounter: UInt, stackPointer: UInt, framePointer: UInt
    ) {
        guard let context else { return (0, 0, 0) }
        let machine = context.assumingMemoryBound(to: ucontext_t.self)
        #if arch(x86_64)
        let registers = machine.pointee.uc_mcontext.gregs
        // REG_RIP, REG_RSP, REG_RBP
        return (UInt(bitPattern: Int(registers.16)), UInt(bitPattern: Int(registers.15)), UInt(bitPattern: Int(registers.10)))
        #elseif arch(arm64)
        let registers = machine.pointee.uc_mcontext
        return (UInt(registers.pc), UInt(registers.sp), UInt(registers.regs.29))
        #else
        return (0, 0, 0)
        #endif
    }
}
#endif
