#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The stack of the thread running an actor's job, captured the way stall
/// reports capture blocking threads (``ThreadStackCapture``), and turned
/// into report lines. Linux only; elsewhere it captures nothing.
struct HolderStack {
    private let canCapture: Bool

    init() {
        #if os(Linux) && canImport(Glibc)
        canCapture = ThreadStacks.prepare()
        #else
        canCapture = false
        #endif
    }

    /// The thread's raw stack, innermost first; nil if it did not answer
    /// (or stacks cannot be captured here).
    func capture(thread: UInt64) -> [UInt]? {
        #if os(Linux) && canImport(Glibc)
        guard canCapture, thread != 0 else { return nil }
        // As a stall's: a holder asleep in a call is read, never interrupted.
        return ThreadStacks.stack(of: thread)
        #else
        return nil
        #endif
    }

    /// A captured stack as report lines (`function at file:line`), the toolkit's frames left out.
    func symbolicate(_ addresses: [UInt]) -> [String] {
        #if os(Linux) && canImport(Glibc)
        return Symbolicator.threadLines(of: addresses)
        #else
        return []
        #endif
    }
}
