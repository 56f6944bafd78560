#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a plain detached thread running `body`: outside the cooperative
/// pool and Dispatch, so a blocked pool cannot block it. The stall watchdog
/// and the contention watcher each run on one. The thread is named `owner`
/// (its first 15 bytes, the kernel's limit), so `top -H`, a debugger and
/// `/proc/PID/task/TID/comm` show whose it is.
func spawnDetachedThread(named owner: String, _ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(ThreadBody(name: String(decoding: owner.utf8.prefix(15), as: UTF8.self), body)).toOpaque()
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
        body.name.withCString { name in
            #if canImport(Darwin)
            _ = pthread_setname_np(name)
            #else
            _ = setThreadName?(pthread_self(), name)
            #endif
        }
        body.run()
        return nil
    }, box)
    checkPrecondition(created == 0, "\(owner): pthread_create failed (\(created)): the process has no thread to spare")
    #if canImport(Darwin)
    if let thread { pthread_detach(thread) }
    #else
    pthread_detach(thread)
    #endif
}

#if !canImport(Darwin)
/// `pthread_setname_np(pthread_t, const char *)`: a GNU extension the Glibc
/// module does not import, so looked up once.
private typealias SetThreadName = @convention(c) (pthread_t, UnsafePointer<CChar>) -> Int32
private let setThreadName: SetThreadName? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_setname_np")
    .map { unsafeBitCast($0, to: SetThreadName.self) }
#endif

private final class ThreadBody: Sendable {
    let name: String
    let run: @Sendable () -> Void
    init(name: String, _ run: @escaping @Sendable () -> Void) {
        self.name = name
        self.run = run
    }
}
