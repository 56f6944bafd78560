@testable import ConcurrencyToolkit

extension Trace {
    /// The trace without monitored actors' events, and without the threads
    /// seen only in them. An actor created outside any recording records
    /// into every recording running (MonitoredExecutorCore+Trace.swift), and
    /// other suites run such actors in parallel: a test that counts its own
    /// recording's events or threads exactly drops theirs first.
    ///
    /// ```swift
    /// let (_, trace) = await withTraceRecording { marker("inside") }
    /// #expect(trace.withoutActors.events.map(\.kind) == [.marker(name: "inside")])
    /// ```
    var withoutActors: Trace {
        let kept = events.filter { $0.kind.actorChange == nil }
        let seen = Set(kept.map(\.threadID))
        return Trace(
            events: kept, threads: threads.filter { seen.contains($0.id) }, duration: duration,
            discardedEventCount: discardedEventCount)
    }
}
