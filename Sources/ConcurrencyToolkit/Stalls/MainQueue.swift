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
enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }

    /// Whether Dispatch's worker threads drain the main queue: the main
    /// thread is parked in `dispatch_main()`, which an async `main` calls.
    /// Linux's libdispatch ends the main thread there with `pthread_exit`,
    /// and its thread-exit handler then waits in `sigsuspend` for good (seen
    /// in a release program's `/proc/PID/task/PID/syscall`: call 130 on
    /// x86-64); a main thread that did exit is a zombie, state `Z`. Then a
    /// blocked pool holds the main actor up too. Reads a file or two: call
    /// it where a report is made, not per look.
    static var isDrainedByWorkerThreads: Bool {
        #if os(Linux)
        let main = UInt64(getpid())
        if isParkedInDispatchMain(ThreadStatus.of(thread: main)) { return true }
        return SmallFile.text(of: "/proc/self/task/\(main)/stat").map(hasExited(statLine:)) ?? false
        #else
        return false
        #endif
    }

    #if os(Linux)
    /// Whether a thread's status is the wait of `dispatch_main()`: asleep in `rt_sigsuspend`.
    static func isParkedInDispatchMain(_ status: ThreadStatus) -> Bool {
        guard case .blocked(let call) = status else { return false }
        #if arch(x86_64)
        return call.number == 130
        #elseif arch(arm64)
        return call.number == 133
        #else
        return false
        #endif
    }
    #endif

    /// Whether a `stat` line's state, the letter after the name in
    /// parentheses (which may hold spaces and parentheses), is `Z`.
    static func hasExited(statLine text: String) -> Bool {
        guard let close = text.lastIndex(of: ")") else { return false }
        return text[text.index(after: close)...].drop(while: { $0 == " " }).first == "Z"
    }
}
