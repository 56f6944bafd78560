#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// How the toolkit takes another thread's stack for its reports: the one
/// setting both detectors share. ``StallDetector`` uses it for the threads
/// that block the main actor or the pool, ``ActorContentionDetector`` for the
/// thread holding a contended actor.
///
/// ```swift
/// StackCapture.signal = SIGUSR2   // if the program profiles with SIGPROF
/// StallDetector.start()
/// ActorContentionDetector.start()
/// ```
public enum StackCapture {
    private static let storedSignal = Atomic<Int32>(SIGPROF)

    /// The signal sent to a **running** thread to copy its stack. `SIGPROF`
    /// by default: the one of the asynchronous signals that libdispatch
    /// leaves unblocked in its worker threads, the cooperative pool's on
    /// Linux. Set it before either detector first starts; the handler, once
    /// installed, stays installed and chains every signal it did not send to
    /// the handler installed before it.
    ///
    /// For example: `StackCapture.signal = SIGUSR2`
    ///
    /// A thread asleep in the kernel never receives it: its stack is read
    /// from memory, so no blocking call returns early. A running thread
    /// receives one per capture, in user space, where it interrupts no call
    /// (only one entering the kernel in the microseconds between the look
    /// and the signal can be). A running thread that blocks this signal
    /// cannot be captured and is left out: with any other signal than
    /// `SIGPROF`, that is every running pool thread on Linux.
    public static var signal: Int32 {
        get { storedSignal.load(ordering: .relaxed) }
        set { storedSignal.store(newValue, ordering: .relaxed) }
    }
}
