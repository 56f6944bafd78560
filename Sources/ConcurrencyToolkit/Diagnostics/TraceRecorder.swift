/// Records what the toolkit does while ``record(isolation:_:)`` runs, for the
/// task that calls it and every child task and toolkit job it starts.
///
/// ```swift
/// let recorder = TraceRecorder()
/// try await recorder.record { try await squeezer.compress(folder) }
/// try recorder.trace.chromeTraceJSON().write(toFile: "run.json", atomically: true, encoding: .utf8)
/// ```
///
/// Most code wants ``withTraceRecording(isolation:_:)``, which makes a
/// recorder, records one operation and returns the ``Trace``. Use the class to
/// record several operations into one trace, or to look at a trace while the
/// operation still runs.
///
/// - Events are accepted only while at least one `record` call is running.
///   Work that outlives the operation (a job still running on an executor
///   lane, a continuation resumed later) is not recorded after the end: its
///   late events are dropped and counted in ``Trace/discardedEventCount``,
///   and the trace shows it as unfinished. (Process-wide events, below, that
///   reach it just as it ends are dropped without being counted: they were
///   never its own.)
/// - Cancellation of the operation is not special: what happened until the
///   operation returned or threw is recorded.
/// - Recordings are scoped by task, not by process: two recordings in parallel
///   tasks see only their own events. Inside a nested recording, events go to
///   the innermost one only. Two kinds of events belong to no task and go to
///   every recording running: stall and contention reports from a detector
///   started for the process, and the jobs of a monitored actor whose
///   ``MonitoredActorExecutor`` was created outside any recording.
/// - `Task.detached` does not inherit the recording (it inherits no task locals).
public final class TraceRecorder: Sendable {
    private struct Storage {
        var events: [TraceEvent] = []
        var threads: [UInt64: ThreadSeen] = [:]
        var activeOperations = 0
        var origin: UInt64?
        var lastEnd: UInt64?
        var discarded = 0
    }

    private struct ThreadSeen {
        var systemName: String?
        var isMain = false
        var order: Int
    }

    private let storage = Lock(Storage())

    /// Creates a recorder that records nothing until ``record(isolation:_:)`` runs.
    ///
    /// For example: `let recorder = TraceRecorder()`
    public init() {}

    /// Runs `operation` with this recorder active for it and everything it starts.
    ///
    /// For example: `let summary = try await recorder.record { try await importer.importAll() }`
    ///
    /// Returns or throws what `operation` does. Recording stops when it returns,
    /// even if tasks or jobs it started go on (see the type's discussion).
    public func record<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () async throws -> Result
    ) async rethrows -> Result {
        let start = MonotonicClock.now
        storage.withLock { storage in
            if storage.origin == nil { storage.origin = start }
            storage.activeOperations += 1
        }
        Instrumentation.activeRecordings.add(1, ordering: .relaxed)
        Instrumentation.registerActive(self)
        defer {
            Instrumentation.unregisterActive(self)
            Instrumentation.activeRecordings.subtract(1, ordering: .relaxed)
            let end = MonotonicClock.now
            storage.withLock { storage in
                storage.activeOperations -= 1
                storage.lastEnd = max(storage.lastEnd ?? 0, end)
            }
        }
        return try await Instrumentation.$recorder.withValue(self, operation: operation, isolation: isolation)
    }

    /// What was recorded so far: a value that later events do not change.
    ///
    /// For example: `print(recorder.trace.summary())`
    public var trace: Trace {
        let now = MonotonicClock.now
        let (storage, processName) = (self.storage.withLock { $0 }, CurrentThread.processName)
        let origin = storage.origin ?? now
        let end = storage.activeOperations > 0 ? now : (storage.lastEnd ?? origin)
        return Trace(
            events: storage.events,
            threads: Self.describe(storage.threads, processName: processName),
            duration: end &- origin,
            discardedEventCount: storage.discarded)
    }

    // MARK: - Emitting (internal: the toolkit's components call these through Instrumentation)

    /// Records a standalone event (a marker, a misuse report).
    func emit(_ kind: TraceEvent.Kind) {
        append(kind, id: 0)
    }

    /// Records the first event of something that ends later, maybe on another
    /// thread; the token records the rest with the same id.
    func begin(_ kind: TraceEvent.Kind) -> TraceToken {
        let token = TraceToken(recorder: self, id: Instrumentation.makeID())
        append(kind, id: token.id)
        return token
    }

    /// Records `kind` with id `id` at `now` (by default, now; a monitored
    /// actor passes the time it stamped under its lock). After the end, the
    /// event is dropped, and counted as discarded when `countedIfLate`: an
    /// event sent to every recording running (Instrumentation+ActiveRecorders)
    /// may reach one that has just ended, and it was never this recording's.
    func append(_ kind: TraceEvent.Kind, id: UInt64, at now: UInt64 = MonotonicClock.now, countedIfLate: Bool = true) {
        let thread = CurrentThread.id
        // Per event: a Dispatch worker serves the main queue, a lane, another queue in turn.
        let onMain = CurrentThread.isMain
        let firstSighting = storage.withLock { storage -> Bool in
            guard storage.activeOperations > 0, let origin = storage.origin else {
                if countedIfLate { storage.discarded += 1 }
                return false
            }
            // A clock read just before the recording opened may precede its origin.
            let time = now > origin ? now - origin : 0
            storage.events.append(TraceEvent(kind: kind, id: id, time: time, threadID: thread, onMain: onMain))
            guard storage.threads[thread] == nil else { return false }
            storage.threads[thread] = ThreadSeen(order: storage.threads.count)
            return true
        }
        // Naming a thread costs syscalls: once per thread and recording, outside the lock.
        if firstSighting {
            let (name, isMain) = (CurrentThread.systemName, CurrentThread.isProcessMainThread)
            storage.withLock { storage in
                storage.threads[thread]?.systemName = name
                storage.threads[thread]?.isMain = isMain
            }
        }
    }

    private static func describe(
        _ threads: [UInt64: ThreadSeen], processName: String
    ) -> [TraceThread] {
        let named = threads.sorted { ($0.value.isMain ? -1 : $0.value.order) < ($1.value.isMain ? -1 : $1.value.order) }
            .map { id, seen in
                let systemName = seen.systemName ?? ""
                return TraceThread(
                    id: id,
                    name: ThreadNaming.displayName(
                        id: id, systemName: systemName, isMain: seen.isMain, processName: processName),
                    systemName: systemName, isMain: seen.isMain)
            }
        return ThreadNaming.disambiguated(named)
    }
}
