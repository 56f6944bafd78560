#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a plain detached thread running `body`: outside the cooperative
/// pool and Dispatch, so a blocked pool cannot block it. The stall watchdog
/// and the contention watcher each run on one.
///
/// ```swift
/// spawnDetachedThread(named: "StallDetector") { print("watching") }
/// ```
func spawnDetachedThread(named owner: String, _ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(ThreadBody(body)).toOpaque()
    #if canImport(Darwin)
    var thread: pthread_t?
    #else
    var thread = pthread_t()
    #endif
    let created = pthread_create(&thread, nil, { raw in
        #if canImport(Darwin)
        let body = Unmanaged<ThreadBody>.fromOpaque(raw).takeRetainedValue()
        #else
        let body = Unmanaged<ThreadBody>.fromOpaque(raw!).takeRetainedValue()
        #endif
        body.run()
        return nil
    }, box)
    precondition(created == 0, "\(owner): pthread_create failed (\(created))")
    #if canImport(Darwin)
    if let thread { pthread_detach(thread) }
    #else
    pthread_detach(thread)
    #endif
}

private final class ThreadBody: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}
