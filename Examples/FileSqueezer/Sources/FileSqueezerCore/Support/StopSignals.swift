#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The signals that end a run (SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM) and
/// the terminal's resize signal (SIGWINCH), handled on one thread of ours.
///
/// ```swift
/// StopSignals.blockBeforeAnyThreadStarts()      // first line of main.swift
/// StopSignals.shared.startWatching()            // before the first suspension
/// StopSignals.shared.setCleanup { temporaryFiles.removeAll() }
/// let work = Task { await squeezer.run(discovery) }
/// StopSignals.shared.onStop { _ in work.cancel() }
/// // ... after the run:
/// if let signal = StopSignals.shared.received { return 128 + signal }
/// ```
///
/// - **Nothing is lost early.** The signals are blocked before any thread
///   exists (a thread inherits its creator's mask), so none is ignored or
///   acted on by default while the app starts: it waits, pending. One that
///   arrives before ``onStop(_:)`` is remembered and acted on then.
/// - **How they arrive.** An async `main` parks the main thread in
///   libdispatch's `sigsuspend` with an empty mask, so that thread takes
///   every process-directed signal once the app first suspends: a
///   `sigwait` thread would not see them. So ``startWatching()`` installs
///   a handler that only writes the signal's number to a pipe (async-signal
///   safe), and a thread of ours, which unblocks them too, reads the pipe
///   and does the rest; every other thread keeps them blocked.
/// - **Ignored stays ignored.** A signal already ignored when the process
///   starts (SIGHUP under `nohup`, SIGINT and SIGQUIT in a background job of
///   a script) is left ignored, as gzip does.
/// - **No crash report for Ctrl-\\.** The handler replaces the Swift
///   runtime backtracer's for SIGQUIT: no "Program crashed", no prompt.
/// - **A stop is graceful, then forced.** The first stop signal runs the stop
///   action (the app cancels its work, which removes every temporary file,
///   and exits 128 + N). If the process is still alive after the grace
///   period, or on a second signal from outside, the cleanup runs and the
///   process ends at once with `_exit(128 + N)`.
/// - **SIGPIPE from a write** goes to the writing thread, where it stays
///   blocked; the write fails with `EPIPE` instead and ``Terminal`` calls
///   ``deliver(_:fromOutside:)`` itself.
final class StopSignals: Sendable {
    static let shared = StopSignals()

    /// The signals that end the run with status 128 + N, as gzip's do.
    static let stopping: [Int32] = [SIGHUP, SIGINT, SIGQUIT, SIGPIPE, SIGTERM]

    private struct State {
        var received: Int32?
        var watching = false
        var onStop: (@Sendable (Int32) -> Void)?
        var onResize: (@Sendable () -> Void)?
        var cleanup: (@Sendable () -> Void)?
    }

    private let state = VisibleMutex(State())
    /// How long a stopped run may take to wind down before the exit is forced.
    private let gracePeriod: Duration

    init(gracePeriod: Duration = .seconds(5)) { self.gracePeriod = gracePeriod }

    /// Blocks the stop signals and SIGWINCH in the calling thread, and so in
    /// every thread started after it (ours keep them blocked; only the main
    /// thread, parked by libdispatch, takes them, into the handler). Call it
    /// first in `main`.
    static func blockBeforeAnyThreadStarts() {
        var set = watchedSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    private static func watchedSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in stopping + [SIGWINCH] { sigaddset(&set, signal) }
        return set
    }

    /// "SIGINT" for `SIGINT`, and so on.
    static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGHUP: "SIGHUP"
        case SIGINT: "SIGINT"
        case SIGQUIT: "SIGQUIT"
        case SIGPIPE: "SIGPIPE"
        case SIGTERM: "SIGTERM"
        default: "signal \(signal)"
        }
    }

    /// The first stop signal received, if any.
    var received: Int32? { state.withLock { $0.received } }

    /// Installs the handlers (except for signals ignored from the start) and
    /// starts the thread that acts on them; once, later calls do nothing.
    /// Call it before the first suspension of an async `main`.
    func startWatching() {
        let start = state.withLock { state in
            defer { state.watching = true }
            return !state.watching
        }
        guard start else { return }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }  // no descriptors: signals keep their default
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        _ = fcntl(ends[1], F_SETFL, O_NONBLOCK)
        signalPipe = ends[1]
        for signal in Self.stopping + [SIGWINCH] {
            var previous = sigaction()
            guard sigaction(signal, nil, &previous) == 0, !Self.isIgnored(previous) else { continue }
            var action = sigaction()
            Self.setHandler(&action)
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
        let reader = ends[0]
        System.startThread { [self] in
            // The thread is named for debuggers and traces.
            System.nameCurrentThread("file-squeezer signals")
            // This thread takes the signals too (into the handler), so they
            // arrive even while the main thread has not parked yet.
            var set = Self.watchedSet()
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            var signal: UInt8 = 0
            while true {
                let count = read(reader, &signal, 1)
                if count < 0, errno == EINTR { continue }
                guard count == 1 else { return }
                if Int32(signal) == SIGWINCH {
                    state.withLock { $0.onResize }?()
                } else {
                    deliver(Int32(signal), fromOutside: true)
                }
            }
        }
    }

    private static func isIgnored(_ action: sigaction) -> Bool {
        #if canImport(Glibc)
        let handler = action.__sigaction_handler.sa_handler
        #else
        let handler = action.__sigaction_u.__sa_handler
        #endif
        // Function pointers are not Equatable: compare their addresses.
        return unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    private static func setHandler(_ action: inout sigaction) {
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = forwardSignal
        #else
        action.__sigaction_u.__sa_handler = forwardSignal
        #endif
    }

    /// Sets what a stop signal does (on the signal thread: keep it short);
    /// runs it at once if one already arrived.
    func onStop(_ action: @escaping @Sendable (Int32) -> Void) {
        let already = state.withLock { state in
            state.onStop = action
            return state.received
        }
        if let already { action(already) }
    }

    /// Sets what a terminal resize does (on the signal thread).
    func onResize(_ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.onResize = action }
    }

    /// Sets what a forced exit does first (remove the temporary files).
    func setCleanup(_ cleanup: @escaping @Sendable () -> Void) {
        state.withLock { $0.cleanup = cleanup }
    }

    /// Handles stop signal `signal`. The first one runs the stop action and
    /// starts the grace period; a later one from outside (the user pressed
    /// Ctrl-C again) forces the exit. A repeated `EPIPE` changes nothing.
    func deliver(_ signal: Int32, fromOutside: Bool) {
        let (first, action) = state.withLock { state -> (Bool, (@Sendable (Int32) -> Void)?) in
            guard state.received == nil else { return (false, nil) }
            state.received = signal
            return (true, state.onStop)
        }
        if first {
            action?(signal)
            let grace = gracePeriod
            System.startThread { [self] in
                System.sleep(for: grace)
                forceExit(signal)
            }
        } else if fromOutside {
            forceExit(received ?? signal)
        }
    }

    /// Removes the temporary files and ends the process now, with 128 + N.
    private func forceExit(_ signal: Int32) -> Never {
        state.withLock { $0.cleanup }?()
        _exit(128 + signal)
    }
}

/// The pipe's write end, set before any handler is installed (so the
/// handler never runs a global's lazy initialisation).
nonisolated(unsafe) private var signalPipe: Int32 = -1

/// The handler: async-signal safe, it only writes the number to the pipe.
private func forwardSignal(_ signal: Int32) {
    var byte = UInt8(truncatingIfNeeded: signal)
    let saved = errno
    _ = write(signalPipe, &byte, 1)
    errno = saved
}
