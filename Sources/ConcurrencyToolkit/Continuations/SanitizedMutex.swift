#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A `Mutex` whose critical sections ThreadSanitizer can see.
///
/// On Linux `Synchronization.Mutex` locks with futex calls inside the prebuilt,
/// uninstrumented standard library, so ThreadSanitizer sees no ordering between
/// two `withLock` bodies and reports every guarded access as a race (checked
/// with a four-thread counter). This wrapper tells it about the lock it is
/// really holding: an acquire on entry and a release on exit, on the address
/// of the mutex. Accesses outside the lock are still reported. Without
/// ThreadSanitizer the hooks are not in the process and the cost is one branch.
///
/// `package`: shared with ConcurrencyToolkitTesting and the tests, not public API.
package struct SanitizedMutex<Value: ~Copyable>: ~Copyable, @unchecked Sendable {
    // @unchecked: as `Mutex` itself, which is Sendable for any Value.
    private let mutex: Mutex<Value>

    package init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
    }

    /// Runs `body` with the lock held, as `Mutex.withLock` does.
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        guard let hooks = ThreadSanitizerHooks.installed else { return try mutex.withLock(body) }
        // The annotation address is this wrapper's own (a noncopyable value is
        // never moved while borrowed): taking the guarded value's address
        // would itself be an access before the acquire.
        let address = withUnsafePointer(to: self) { UnsafeMutableRawPointer(mutating: $0) }
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            hooks.acquire(address)
            defer { hooks.release(address) }
            return try body(&value)
        }
    }
}

/// ThreadSanitizer's annotation entry points, when its runtime is loaded.
struct ThreadSanitizerHooks: Sendable {
    typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void
    let acquire: Annotation
    let release: Annotation

    static let installed: ThreadSanitizerHooks? = {
        // RTLD_DEFAULT is a null handle on Linux and -2 on Darwin.
        #if os(Linux)
        let everywhere = UnsafeMutableRawPointer(bitPattern: 0)
        #else
        let everywhere = UnsafeMutableRawPointer(bitPattern: -2)
        #endif
        guard let acquire = dlsym(everywhere, "__tsan_acquire"), let release = dlsym(everywhere, "__tsan_release")
        else { return nil }
        return ThreadSanitizerHooks(
            acquire: unsafeBitCast(acquire, to: Annotation.self), release: unsafeBitCast(release, to: Annotation.self))
    }()
}
