#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What the benchmarks measure of the stall capture, and nothing more: the
/// cost of one capture of a thread asleep in the kernel (read from memory),
/// of one capture of a running thread (signalled), and the count of
/// captures whose signal found a thread at a system call. Not API (the
/// leading underscore): public only because the Benchmarks package
/// (`StallCaptureHarness`) is another package; it may change in any release.
///
/// ```swift
/// import ConcurrencyToolkit
///
/// let threadID = _StackCaptureCost.currentThreadID   // on the thread to capture
/// if let nanoseconds = _StackCaptureCost.blockedCapture(thread: threadID) {
///     print("read from memory in \(nanoseconds) ns")
/// }
/// print(_StackCaptureCost.interruptedCalls)   // 0 unless a signal found a call
/// ```
///
/// Everything here returns nil (or 0) on platforms without `/proc`.
public enum _StackCaptureCost {
    /// The calling thread's kernel id (`gettid()`), the id the captures take.
    public static var currentThreadID: UInt64 { CurrentThread.id }

    /// Captures whose signal found the thread at a system call (it entered
    /// the kernel between the look at `/proc` and the signal): calls the
    /// capture interrupted, or restarted unseen. 0 is the goal.
    public static var interruptedCalls: Int {
        #if os(Linux) && canImport(Glibc)
        return ThreadStackCapture.interruptedCalls
        #else
        return 0
        #endif
    }

    /// Nanoseconds to read this process's memory map (`/proc/self/maps`):
    /// done once per stall, before its threads are captured.
    public static func memoryMapRead() -> UInt64? {
        #if os(Linux)
        let start = MonotonicClock.now
        let regions = MemoryRegions.current()
        return regions.regions.isEmpty ? nil : MonotonicClock.now - start
        #else
        return nil
        #endif
    }

    /// Nanoseconds of one capture of `thread`, asleep in the kernel, as a
    /// stall captures it: its `/proc/self/task/TID/syscall`, its stack read
    /// from memory and unwound, the file read again. The memory map is read
    /// before the clock starts (once per stall, not per thread).
    /// Nil if the thread is not asleep or woke meanwhile. `frames` gets the
    /// number of frames found.
    public static func blockedCapture(thread: UInt64, frames: UnsafeMutablePointer<Int>? = nil) -> UInt64? {
        #if os(Linux)
        let regions = MemoryRegions.current()
        // As a stall walks it: on to the job's entry where the frame chain ends early.
        #if canImport(Glibc)
        let lastFrame: ((UInt) -> Bool)? = ThreadStacks.isInSwiftJobRun
        #else
        let lastFrame: ((UInt) -> Bool)? = nil
        #endif
        let start = MonotonicClock.now
        guard case .blocked(let call) = ThreadStatus.of(thread: thread),
            let found = BlockedStackCapture.capture(thread: thread, call: call, regions: regions, isLastFrame: lastFrame)
        else { return nil }
        let elapsed = MonotonicClock.now - start
        frames?.pointee = found.frames.count
        return elapsed
        #else
        return nil
        #endif
    }

    /// Nanoseconds of one capture of `thread`, running, as a stall captures
    /// it: its state read from `/proc`, then the signal, the handler's copy
    /// of the stack on that thread, the wait for it, and the unwinding of the
    /// copy. The memory map is read before the clock starts (once per stall,
    /// not per thread). Nil if the thread was not running or did not answer.
    /// `frames` gets the number of frames.
    public static func runningCapture(thread: UInt64, frames: UnsafeMutablePointer<Int>? = nil) -> UInt64? {
        #if os(Linux) && canImport(Glibc)
        guard ThreadStacks.prepare() else { return nil }
        let regions = MemoryRegions.current()
        let start = MonotonicClock.now
        guard
            let capture = ThreadStackCapture.capture(
                thread: Int32(truncatingIfNeeded: thread), onlyIfRunning: true, regions: regions,
                isLastFrame: ThreadStacks.isInSwiftJobRun)
        else {
            return nil
        }
        let elapsed = MonotonicClock.now - start
        frames?.pointee = capture.addresses.count
        return elapsed
        #else
        return nil
        #endif
    }
}
