import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns Ctrl-C (SIGINT) into task cancellation.
///
/// ```swift
/// let interrupt = InterruptSignal()
/// let work = Task { await squeezer.run(discovery) }
/// interrupt.onInterrupt { work.cancel() }
/// ```
///
/// SIGINT's default action (kill the process, leaving temporary files behind)
/// is ignored; a Dispatch signal source on its own queue calls the action
/// instead. The action runs on that queue, synchronously: it does not wait
/// for the main actor or the cooperative pool, which may both be busy
/// compressing. A signal that arrives before `onInterrupt` is remembered.
final class InterruptSignal {
    private let source: any DispatchSourceSignal
    private let box = Box()

    init() {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "file-squeezer.sigint"))
        source.setEventHandler { [box] in
            let action = box.state.withLock { state -> (@Sendable () -> Void)? in
                state.interrupted = true
                return state.action
            }
            action?()
        }
        source.resume()
    }

    /// Whether SIGINT has arrived.
    var interrupted: Bool { box.state.withLock { $0.interrupted } }

    /// Sets what an interrupt does; runs it at once if one already arrived.
    func onInterrupt(_ action: @escaping @Sendable () -> Void) {
        let already = box.state.withLock { state in
            state.action = action
            return state.interrupted
        }
        if already { action() }
    }

    private final class Box: Sendable {
        let state = VisibleMutex<(interrupted: Bool, action: (@Sendable () -> Void)?)>((false, nil))
    }
}
