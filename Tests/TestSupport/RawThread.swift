#if os(Linux)
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain pthread running `body`, outside Dispatch and the cooperative
/// pool, joined by `join()`: for tests of per-thread state (what a thread
/// leaves behind when it exits, what another thread sees of it).
package final class RawThread: @unchecked Sendable {
    // @unchecked: `handle` is written before the thread runs, read by join().
    private var handle = pthread_t()
    private let body: @Sendable () -> Void

    package init(_ body: @escaping @Sendable () -> Void) {
        self.body = body
        pthread_create(&handle, nil, { raw in
            Unmanaged<RawThread>.fromOpaque(raw!).takeRetainedValue().body()
            return nil
        }, Unmanaged.passRetained(self).toOpaque())
    }

    package func join() { pthread_join(handle, nil) }
}
#endif
