/// An OS thread that emitted at least one event in a ``Trace``.
///
/// ```swift
/// for thread in trace.threads {
///     print(thread.id, thread.name)     // 7397 main, 7402 dispatch thread · 7402, ...
/// }
/// ```
///
/// The exported timelines do not draw one row per OS thread: Dispatch moves
/// its worker threads between the main queue, executor lanes and other
/// queues, so one OS thread can run the main actor, then a blocking job on
/// `io lane 3`, then something else. Each event is drawn in the row of what
/// its thread was doing at that moment (`main`, `io lane 3`, or the thread
/// itself); the rows list the OS threads that served them.
public struct TraceThread: Sendable, Hashable, Identifiable {
    /// The OS thread id (what `top -H` and debuggers show).
    public var id: UInt64
    /// A name for people: `main` for the process's main thread, the name the
    /// program gave the thread, `cooperative pool · TID`, `dispatch thread · TID`, ...
    public var name: String
    /// The name the OS had for the thread when it first emitted in this recording.
    public var systemName: String
    /// Whether it is the process's main thread. (On Linux, after `dispatch_main()`
    /// the main queue runs on Dispatch workers instead: see ``TraceEvent/onMain``.)
    public var isMain: Bool

    /// Creates a thread description; recordings create these for you.
    ///
    /// For example: `let main = TraceThread(id: 7397, name: "main", systemName: "file-squeezer", isMain: true)`
    public init(id: UInt64, name: String, systemName: String, isMain: Bool) {
        self.id = id
        self.name = name
        self.systemName = systemName
        self.isMain = isMain
    }
}

/// How an OS thread is called. Pure, so it is tested without threads.
/// (What the thread was doing, a lane or the main queue, is not its name: see
/// `TraceTimeline.Role`.)
enum ThreadNaming {
    static func displayName(id: UInt64, systemName: String, isMain: Bool, processName: String) -> String {
        if isMain { return "main" }
        let dispatchDefault = systemName.hasPrefix("com.apple.") || systemName.contains("qos")
        if !systemName.isEmpty, systemName != processName, !dispatchDefault { return systemName }
        // libdispatch names its workers after the root queue, truncated to 15
        // bytes on Linux: "oot.default-qos" for the pool that runs tasks,
        // "-qos.overcommit" for threads of serial queues (lanes, the main
        // queue after dispatch_main).
        if systemName.hasSuffix("overcommit") { return "dispatch thread · \(id)" }
        if dispatchDefault { return "cooperative pool · \(id)" }
        return "thread · \(id)"
    }

    /// Adds the thread id to names that more than one thread shares (two
    /// threads the program named alike).
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
