import Synchronization

/// Polls `condition` every millisecond until it holds or `timeout` passes;
/// returns whether it held. For waiting on an executor's metrics in tests.
func waitUntil(
    timeout: Duration = .seconds(30), _ condition: () -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}

/// A thread-safe counter that escaping `@Sendable` closures can capture.
final class HitCounter: Sendable {
    private let storage = Atomic<Int>(0)
    var value: Int { storage.load(ordering: .sequentiallyConsistent) }
    func increment() { storage.add(1, ordering: .sequentiallyConsistent) }
}

import Dispatch

/// Whether the caller runs on the main queue, which backs the main actor.
/// (Under `swift test` on Linux the main actor's queue is not necessarily
/// drained by the process's main thread, so `Thread.isMainThread` cannot tell.)
func isOnMainQueue() -> Bool {
    DispatchQueue.getSpecific(key: mainQueueKey) == true
}

private let mainQueueKey: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()

#if canImport(Glibc)
import Glibc
#endif

/// Whether this process runs under ThreadSanitizer (its runtime is linked in),
/// which makes thread creation several times slower.
let isRunningUnderThreadSanitizer: Bool = {
    #if canImport(Glibc)
    return dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil
    #else
    return false
    #endif
}()

/// Signals `gate` after `delay` unless cancelled first, and counts that in
/// `fired`: a test whose job stays blocked on `gate` then fails (it checks
/// `fired`) instead of hanging.
func watchdog(signalling gate: DispatchSemaphore, after delay: Duration, fired: HitCounter) -> Task<Void, Never> {
    Task {
        guard (try? await Task.sleep(for: delay)) != nil else { return }
        fired.increment()
        gate.signal()
    }
}
