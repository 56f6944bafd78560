import Synchronization

/// The one way the toolkit's components report to Diagnostics. With no
/// recording active anywhere in the process, every call costs one relaxed
/// atomic load and one branch: no task-local lookup, no clock read, no
/// allocation (the event is an autoclosure that is never evaluated).
///
/// In the task that does the work: `emit`, or `begin` … `end`. For work that
/// runs later on another thread: `begin` in the caller's task, at submit or
/// creation, then `end` from anywhere. Where each component calls, and with
/// what: ARCHITECTURE.md, "Diagnostics".
///
/// Emit the end of anything a caller awaits *before* resuming that caller:
/// once resumed, it may end its recording, and a later event is discarded.
/// Never emit while holding a component's lock.
///
/// (`@usableFromInline`: `SafeContinuation`'s inlinable path calls
/// ``beginWait(at:)``; nothing else of it is visible to clients.)
@usableFromInline
enum Instrumentation {
    /// How many ``TraceRecorder/record(isolation:_:)`` calls are running in the
    /// process. While zero, nobody looks at the task local.
    static let activeRecordings = Atomic<Int>(0)

    /// The recording the current task belongs to.
    @TaskLocal static var recorder: TraceRecorder?

    /// The recorder to capture now and emit to later, from any thread; `nil`
    /// when no recording is active for this task (almost always).
    @inline(__always)
    static var currentRecorder: TraceRecorder? {
        activeRecordings.load(ordering: .relaxed) == 0 ? nil : recorder
    }

    /// Whether any recording runs in the process: one relaxed load. What a
    /// component that captured a recorder checks before it builds an event.
    @inline(__always)
    static var isRecordingAnywhere: Bool { activeRecordings.load(ordering: .relaxed) != 0 }

    /// Records a standalone event for the current task's recording, if any.
    @inline(__always)
    static func emit(_ kind: @autoclosure () -> TraceEvent.Kind) {
        if activeRecordings.load(ordering: .relaxed) != 0, let recorder {
            recorder.emit(kind())
        }
    }

    /// Records the first event of something that ends later, maybe on another
    /// thread, and returns the token for the rest; `nil` when not recording.
    @inline(__always)
    static func begin(_ kind: @autoclosure () -> TraceEvent.Kind) -> TraceToken? {
        if activeRecordings.load(ordering: .relaxed) != 0, let recorder {
            return recorder.begin(kind())
        }
        return nil
    }

    /// Runs `body` with `recorder` as the current recording, on a thread that
    /// is not running a task (an executor lane), so that ``span(_:_:)`` and
    /// ``marker(_:)`` in the user's job closure reach the recording of the task
    /// that submitted it. With `recorder == nil`: just runs `body`.
    @inline(__always)
    static func withRecorder<Result>(_ recorder: TraceRecorder?, _ body: () throws -> Result) rethrows -> Result {
        guard let recorder else { return try body() }
        return try $recorder.withValue(recorder, operation: body)
    }

    private static let lastID = Atomic<UInt64>(0)

    /// A process-wide unique id, so begin and end pair up in any recording.
    static func makeID() -> UInt64 {
        lastID.wrappingAdd(1, ordering: .relaxed).newValue
    }
}

/// The recorder and id of one job, wait, delivery, child or span: what a
/// component keeps to report the rest of it from any thread.
/// (`@usableFromInline`: `SafeContinuation`'s inlinable box stores one.)
@usableFromInline
struct TraceToken: Sendable {
    let recorder: TraceRecorder
    let id: UInt64

    /// Records a further event (started, resumed, …) of the same thing.
    func emit(_ kind: TraceEvent.Kind) {
        recorder.append(kind, id: id)
    }

    /// Records the closing event; the same as ``emit(_:)``, named for readability.
    func end(_ kind: TraceEvent.Kind) {
        recorder.append(kind, id: id)
    }
}
