import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Who is running right now and when: the OS thread id, its name, and a
/// monotonic clock. Used only while a recording is active.
enum CurrentThread {
    /// The OS thread id (Linux `gettid`, Darwin `pthread_threadid_np`), the id
    /// `top -H`, `perf` and debuggers show.
    ///
    /// Swift cannot call `gettid` or `syscall` on Linux (not imported), so the id
    /// comes from `/proc/thread-self` once per thread and is cached in a
    /// pthread key: later calls cost one `pthread_getspecific`.
    static var id: UInt64 {
        if let cached = pthread_getspecific(idKey) {
            return UInt64(UInt(bitPattern: cached))
        }
        let id = lookUpID()
        pthread_setspecific(idKey, UnsafeRawPointer(bitPattern: UInt(id)))
        return id
    }

    private static let idKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    private static func lookUpID() -> UInt64 {
        #if os(Linux)
        // "/proc/thread-self" links to "PID/task/TID".
        var buffer = [CChar](repeating: 0, count: 64)
        let count = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        if count > 0 {
            let link = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if let tid = link.split(separator: "/").last.flatMap({ UInt64($0) }), tid != 0 { return tid }
        }
        #elseif canImport(Darwin)
        var tid: UInt64 = 0
        if pthread_threadid_np(nil, &tid) == 0, tid != 0 { return tid }
        #endif
        // No /proc (a sandbox): any value unique among live threads will do.
        #if canImport(Darwin)
        return UInt64(UInt(bitPattern: pthread_self()))
        #else
        return UInt64(pthread_self())
        #endif
    }

    /// The name the OS shows for this thread (what `pthread_setname_np` set,
    /// or what libdispatch named its workers). A few syscalls: call it once
    /// per thread and recording, never per event.
    static var systemName: String {
        #if os(Linux)
        return readFirstLine("/proc/thread-self/comm") ?? ""
        #elseif canImport(Darwin)
        var buffer = [CChar](repeating: 0, count: 64)
        pthread_getname_np(pthread_self(), &buffer, buffer.count)
        let name = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: name, as: UTF8.self)
        #else
        return ""
        #endif
    }

    /// Whether this thread runs the main actor: the process's main thread, or
    /// (on Linux) the thread draining the main queue. After an async `main`
    /// calls `dispatch_main()`, Linux libdispatch drains the main queue, and
    /// with it the main actor, on a worker thread; a timeline that called it
    /// "dispatch thread" would hide where the main actor ran.
    ///
    /// A thread's role changes: Dispatch worker threads serve the main queue,
    /// executor lanes and other queues in turn. Read it per event, never cache it.
    static var isMain: Bool {
        #if os(Linux)
        return isProcessMainThread || DispatchQueue.getSpecific(key: mainQueueKey) == true
        #else
        return isProcessMainThread
        #endif
    }

    /// Whether this is the thread the process started on (always the main
    /// thread, whatever queue it drains).
    static var isProcessMainThread: Bool {
        #if os(Linux)
        return id == processID
        #elseif canImport(Darwin)
        return pthread_main_np() != 0
        #else
        return false
        #endif
    }

    #if os(Linux)
    /// `getpid()` is a system call on current glibc; read it once.
    private static let processID = UInt64(getpid())
    #endif

    #if os(Linux)
    private static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()
    #endif

    /// The process's name, which threads that were never named inherit.
    static let processName: String = {
        #if os(Linux)
        return readFirstLine("/proc/self/comm") ?? ""
        #else
        return ""
        #endif
    }()

    #if os(Linux)
    private static func readFirstLine(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
    }
    #endif
}
