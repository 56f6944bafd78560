import Dispatch

/// Whether the caller runs on the main queue, which backs the main actor.
/// (Under `swift test` on Linux the main actor's queue is not necessarily
/// drained by the process's main thread, so `Thread.isMainThread` cannot tell.)
package func isOnMainQueue() -> Bool {
    DispatchQueue.getSpecific(key: mainQueueKey) == true
}

private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

/// Signals `gate` after `delay` unless cancelled first, and counts that in
/// `fired`: a test whose job stays blocked on `gate` then fails (it checks
/// `fired`) instead of hanging.
package func watchdog(signalling gate: DispatchSemaphore, after delay: Duration, fired: Counter) -> Task<Void, Never> {
    Task {
        guard (try? await Task.sleep(for: delay)) != nil else { return }
        fired.increment()
        gate.signal()
    }
}
