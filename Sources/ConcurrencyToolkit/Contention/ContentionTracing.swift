/// The contention part's trace events (see Diagnostics/TraceEventKinds.swift).
enum ContentionTracing {
    @inline(__always)
    static func queueChanged(_ core: MonitoredExecutorCore) {}
}
