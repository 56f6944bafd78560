import Synchronization

/// The one way the toolkit's components report to Diagnostics.
///
/// With no recording active anywhere in the process, every call below costs
/// one relaxed atomic load and one branch: no task-local lookup, no clock
/// read, no allocation (the event is an autoclosure that is never evaluated).
///
/// Two shapes:
/// - **In the task that does the work** (a span, a marker):
///   `Instrumentation.emit(.marker(name: name))`, or
///   `let token = Instrumentation.begin(.spanStarted(name: name))` … `token?.end(.spanFinished)`.
/// - **Work that runs later on another thread** (a blocking job, a continuation
///   resumed by a callback): capture at submit/creation time, in the caller's
///   task (`let trace = Instrumentation.begin(.jobQueued(executor: label))`),
///   then emit from anywhere (`trace?.end(.jobFinished(failed: false))`).
///
/// Where each component calls (ids pair begin and end):
///
/// | component | where | call |
/// |---|---|---|
/// | `BlockingExecutor` | `run`, creating the job (caller's task) | `trace: Instrumentation.begin(.jobQueued(executor: label))`, stored in the job |
/// | | `BlockingJob.execute`, after the lifecycle started | `trace?.emit(.jobStarted(executor: label, lane: lane))` |
/// | | `TypedBlockingJob.perform`, around the body | `Instrumentation.withRecorder(trace?.recorder) { try body(context) }`, so spans inside it are recorded |
/// | | `BlockingJob.execute`, after the body, *before* the caller is resumed | `trace?.end(.jobFinished(failed: !succeeded))` |
/// | | `BlockingJob.fail` (withdrawn, shut down) and `execute` refusing a cancelled job, before resuming | `trace?.end(.jobDiscarded(reason: …))` |
/// | `ContinuationStorage` | `init` | `trace = Instrumentation.begin(.continuationCreated(site: site))`; a link bit when non-nil so `finished(as:)` runs |
/// | | `finished(as:)` | `.resumed` → `.continuationResumed`, `.timedOut` → `.continuationTimedOut`, `.cancelled` → `.continuationCancelled` (a leak is reported by the misuse event) |
/// | | wherever a misuse is delivered (extra resume, `deinit` leak) | `trace?.emit(.continuationMisused(misuse))` |
/// | `ThrottleStorage` (all three reporters) | `init` | `trace = Instrumentation.currentRecorder` (reports may come from threads with no task) |
/// | | pump, around `await deliver(batch)` | `let t = trace?.begin(.deliveryStarted(.progress or .batch, count: n))` … `t?.end(.deliveryFinished)` |
/// | `concurrentMap` / `concurrentForEach` | inside `group.addTask { }` | `let t = Instrumentation.begin(.childStarted(index: index)); defer { t?.end(.childFinished) }` |
///
/// Emit the end of anything a caller awaits (a job finishing, a continuation
/// resumed) *before* resuming that caller: once resumed, the caller may end
/// its recording, and an event after the end is discarded. Never emit while
/// holding a component's lock: recording takes the recorder's own lock.
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
