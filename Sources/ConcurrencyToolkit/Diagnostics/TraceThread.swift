/// A thread that emitted at least one event in a ``Trace``: one lane in the
/// exported timelines.
///
/// ```swift
/// for thread in trace.threads {
///     print(thread.id, thread.name)     // 7397 main, 7402 blocking lane 0, ...
/// }
/// ```
public struct TraceThread: Sendable, Hashable, Identifiable {
    /// The OS thread id (what `top -H` and debuggers show).
    public var id: UInt64
    /// A name for people: `main`, the executor's lane name, `cooperative pool · TID`, ...
    public var name: String
    /// The name the OS had for the thread when it first emitted in this recording.
    public var systemName: String
    /// Whether it is the process's main thread.
    public var isMain: Bool

    /// Creates a thread description; recordings create these for you.
    ///
    /// ```swift
    /// let main = TraceThread(id: 7397, name: "main", systemName: "file-squeezer", isMain: true)
    /// ```
    public init(id: UInt64, name: String, systemName: String, isMain: Bool) {
        self.id = id
        self.name = name
        self.systemName = systemName
        self.isMain = isMain
    }
}

/// How a thread is called on the timeline. Pure, so it is tested without threads.
enum ThreadNaming {
    /// - Parameters:
    ///   - lane: the executor lane that ran jobs on this thread, if any.
    static func displayName(
        id: UInt64, systemName: String, isMain: Bool, processName: String, lane: (executor: String, index: Int)?
    ) -> String {
        if isMain { return "main" }
        let dispatchDefault = systemName.hasPrefix("com.apple.") || systemName.contains("qos")
        if !systemName.isEmpty, systemName != processName, !dispatchDefault { return systemName }
        if let lane { return "\(lane.executor) lane \(lane.index)" }
        // libdispatch names its workers after the root queue, truncated to 15
        // bytes on Linux: "oot.default-qos" for the pool that runs tasks,
        // "-qos.overcommit" for threads of serial queues.
        if systemName.hasSuffix("overcommit") { return "dispatch thread · \(id)" }
        if dispatchDefault { return "cooperative pool · \(id)" }
        return "thread · \(id)"
    }

    /// Adds the thread id to names that more than one thread shares. Dispatch
    /// runs one serial lane on different OS threads over a long run, so
    /// "io lane 1" can name several rows; each row stays one OS thread.
    static func disambiguated(_ threads: [TraceThread]) -> [TraceThread] {
        var count: [String: Int] = [:]
        for thread in threads { count[thread.name, default: 0] += 1 }
        return threads.map { thread in
            guard count[thread.name, default: 0] > 1 else { return thread }
            var unique = thread
            unique.name += " · \(thread.id)"
            return unique
        }
    }
}
