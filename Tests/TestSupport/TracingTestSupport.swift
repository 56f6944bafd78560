import ConcurrencyToolkit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Questions the wiring tests ask of a recorded trace.
extension Trace {
    /// The events whose kind `matches` says yes to, in recording order.
    package func events(_ matches: (TraceEvent.Kind) -> Bool) -> [TraceEvent] {
        events.filter { matches($0.kind) }
    }

    /// The events that share `id` (one job, wait, delivery or child), in order.
    package func events(withID id: UInt64) -> [TraceEvent.Kind] {
        events.filter { $0.id == id }.map(\.kind)
    }

    /// The names of the markers, in recording order.
    package var markerNames: [String] {
        events.compactMap { if case .marker(let name) = $0.kind { name } else { nil } }
    }
}

/// Under ThreadSanitizer only: waits 2 ms on the resuming thread (a lane, a
/// Dispatch worker), so the waiting task has finished suspending before it is
/// resumed. A resume that beats the suspension trips a known ThreadSanitizer
/// false positive in `UnsafeContinuation` (swiftlang/swift#57803: the runtime's
/// hand-off is invisible to it). Not for timing: normal runs do not wait, so
/// the ordering tests keep their full strength there.
package func letTheWaiterSuspendUnderThreadSanitizer() {
    if isRunningUnderThreadSanitizer { usleep(2_000) }
}
