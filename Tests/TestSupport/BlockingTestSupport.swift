import Synchronization

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
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
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
func watchdog(signalling gate: DispatchSemaphore, after delay: Duration, fired: Counter) -> Task<Void, Never> {
    Task {
        guard (try? await Task.sleep(for: delay)) != nil else { return }
        fired.increment()
        gate.signal()
    }
}
