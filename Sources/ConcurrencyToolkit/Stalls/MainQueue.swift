#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// Whether the calling code runs on the main queue: the main actor's
/// executor on every platform (the main thread under a run loop, or the
/// worker thread an async `main` hands the queue to after `dispatch_main()`).
///
/// ```swift
/// if MainQueue.isCurrent { StallMonitor.shared.watchdog?.armMainProbe() }
/// ```
enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }

    /// Whether Dispatch's worker threads drain the main queue: the main
    /// thread has exited (an async `main` calls `dispatch_main()`, which
    /// ends it with `pthread_exit`; Linux keeps it as a zombie, state `Z`
    /// in `/proc/self/task/PID/stat`). Then a blocked pool holds the main
    /// actor up too. Reads a file: call it where a report is made, not per look.
    static var isDrainedByWorkerThreads: Bool {
        #if os(Linux)
        ThreadStatus.readSmallFile("/proc/self/task/\(getpid())/stat").map(hasExited(statLine:)) ?? false
        #else
        return false
        #endif
    }

    /// Whether a `stat` line's state, the letter after the name in
    /// parentheses (which may hold spaces and parentheses), is `Z`.
    static func hasExited(statLine text: String) -> Bool {
        guard let close = text.lastIndex(of: ")") else { return false }
        return text[text.index(after: close)...].drop(while: { $0 == " " }).first == "Z"
    }
}
