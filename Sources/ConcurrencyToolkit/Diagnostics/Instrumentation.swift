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
///   task, then emit from anywhere:
///
/// ```swift
/// // BlockingExecutor.run, in the caller's task:
/// let trace = Instrumentation.begin(.jobQueued(executor: label))   // nil almost always
/// // on the lane, when the job leaves the FIFO:
/// trace?.emit(.jobStarted(executor: label, lane: laneIndex))
/// // after the closure returned or threw:
/// trace?.emit(.jobFinished(failed: threw))
/// // or, if it never ran (cancelled while queued, shutdown):
/// trace?.emit(.jobDiscarded(reason: "cancelled while queued"))
/// ```
///
/// Where each component calls (the lead wires these; ids pair begin and end):
///
/// | component | where | call |
/// |---|---|---|
/// | `BlockingExecutor` | `run`, before enqueuing | `let trace = Instrumentation.begin(.jobQueued(executor: label))`, stored with the job |
/// | | lane, job dequeued, before the closure | `job.trace?.emit(.jobStarted(executor: label, lane: index))` |
/// | | lane, running the closure | `Instrumentation.withRecorder(job.trace?.recorder) { try job.body(context) }`, so the user's spans in it are recorded |
/// | | lane, after the closure | `job.trace?.emit(.jobFinished(failed: didThrow))` |
/// | | job removed by cancellation / failed by shutdown | `job.trace?.emit(.jobDiscarded(reason: "cancelled while queued"))` / `"executor shut down"` |
/// | | each lane's thread, once, when it starts | name it `"<label> lane N"` (`pthread_setname_np`, 15 bytes max on Linux) |
/// | `ContinuationBox` | `init` | `self.trace = Instrumentation.begin(.continuationCreated(site: site))` |
/// | | `resume`, `.finish` case | `trace?.emit(.continuationResumed)` |
/// | | timeout / cancel won | `trace?.emit(.continuationTimedOut)` / `trace?.emit(.continuationCancelled)` |
/// | | misuse delivered (extra resume, leak) | `trace?.emit(.continuationMisused(misuse))` |
/// | `ThrottledProgress`, keyed, batching | around the handler call, inside its isolation if possible | `let t = recorder?.begin(.deliveryStarted(.progress, count: folded))` … `t?.end(.deliveryFinished)` with `recorder = Instrumentation.currentRecorder` captured at `init` |
/// | `concurrentMap` / `concurrentForEach` | child task body | `let t = Instrumentation.begin(.childStarted(index: i))` … `t?.end(.childFinished)` |
///
/// Emit *after* releasing any lock and after resuming a continuation where the
/// order does not matter: recording takes the recorder's own lock briefly.
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
