#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The calling thread's return addresses, innermost first, async callers
/// included (``AsyncStackWalk``): what a continuation's creation backtrace
/// keeps. A few dozen loads and no system call once the thread's stack
/// bounds and the code map are known; nothing is symbolicated here.
enum CurrentStack {
    /// Up to `limit` addresses: the caller's return address first. Empty
    /// where the stack cannot be walked (no frame record found, or not Linux).
    @inline(never)
    static func capture(limit: Int) -> [UInt] {
        #if os(Linux) && canImport(Glibc)
        guard let bounds = StackBounds.current else { return [] }
        let frames = walk(bounds: bounds, code: CodeMap.shared.snapshot, limit: limit)
        // A frame in no known image: a library loaded since the code was listed.
        if frames.count < limit, let last = frames.last, !CodeMap.shared.snapshot.isConcurrencyRuntime(last),
            CodeMap.shared.refreshIfStale()
        {
            return walk(bounds: bounds, code: CodeMap.shared.snapshot, limit: limit)
        }
        return frames
        #else
        return []
        #endif
    }

    #if os(Linux) && canImport(Glibc)
    @inline(never)
    private static func walk(bounds: Range<UInt>, code: CodeMap.Snapshot, limit: Int) -> [UInt] {
        var local: UInt = 0
        return withUnsafeMutablePointer(to: &local) { pointer in
            let read: (UInt) -> UInt? = { address in
                guard address >= bounds.lowerBound, address <= bounds.upperBound &- 8, address % 8 == 0 else { return nil }
                return UnsafePointer<UInt>(bitPattern: address)?.pointee
            }
            let start = UInt(bitPattern: pointer)
            guard let record = AsyncStackWalk.firstRecord(above: start, read: read, isCode: code.isCode) else { return [] }
            return AsyncStackWalk.frames(
                framePointer: record, limit: limit, read: read,
                readContext: { context in
                    // A context of the running task: heap memory, alive while it runs.
                    guard !bounds.contains(context), let words = UnsafePointer<UInt>(bitPattern: context) else { return nil }
                    return (words[0], words[1])
                },
                isCode: code.isCode, isConcurrencyRuntime: code.isConcurrencyRuntime)
        }
    }
    #endif
}

#if os(Linux) && canImport(Glibc)
/// The calling thread's stack, from `pthread_getattr_np`, kept per thread
/// (a pthread key): asked once per thread, since glibc reads
/// `/proc/self/maps` for the main thread's.
enum StackBounds {
    private typealias GetAttributesFunction = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
    private static let getAttributes: GetAttributesFunction? = {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np").map { unsafeBitCast($0, to: GetAttributesFunction.self) }
    }()

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { free($0) }
        return key
    }()

    static var current: Range<UInt>? {
        if let cached = pthread_getspecific(key)?.assumingMemoryBound(to: UInt.self) {
            return cached[0]..<cached[1]
        }
        guard let getAttributes else { return nil }
        var attributes = pthread_attr_t()
        guard getAttributes(pthread_self(), &attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        var base: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &base, &size) == 0, let base, size > 0,
            let stored = malloc(2 * MemoryLayout<UInt>.size)?.assumingMemoryBound(to: UInt.self)
        else { return nil }
        stored[0] = UInt(bitPattern: base)
        stored[1] = UInt(bitPattern: base) &+ UInt(size)
        pthread_setspecific(key, stored)
        return stored[0]..<stored[1]
    }
}
#endif
