import Dispatch
import Synchronization

/// Runs blocking work — file and socket I/O, C libraries, waits on locks and
/// semaphores — on threads of its own, so it never occupies the cooperative
/// pool that every `async` function shares.
///
/// ```swift
/// let io = BlockingExecutor(width: 16, label: "file-io")
///
/// func load(_ path: String) async throws -> [UInt8] {
///     try await io.run { context in
///         try readWholeFile(path)        // blocks a lane thread, not the pool
///     }
/// }
/// ```
///
/// The cooperative pool has one thread per core. A task that blocks holds
/// one of them; enough blocked tasks stall every `async` function in the
/// process, or deadlock it when the unblocking work is itself a task. `run`
/// suspends its caller instead and runs the body on one of `width` lanes:
/// serial Dispatch queues, each backed by a thread of its own, fed from one
/// FIFO of pending jobs.
///
/// - Cancellation: a job still in the FIFO is removed and its caller throws
///   `CancellationError` at once; the body never runs. A running body sees
///   the cancellation through its ``JobContext``.
/// - Shutdown: ``shutdown(function:fileID:line:)`` lets running jobs finish, fails queued and later
///   jobs with ``ShutDownError``, and returns when no lane is busy.
/// - Also a `TaskExecutor`: `withTaskExecutorPreference(executor) { ... }`
///   runs nonisolated async work on the lanes (see the guide for its
///   main-actor pitfall, which `run` does not have).
public final class BlockingExecutor: Sendable {
    /// How many jobs can run at once (one lane each).
    public let width: Int
    /// Names the executor in lane queue labels and in ``ShutDownError``.
    public let label: String

    let lanes: [DispatchQueue]
    let state: Lock<BlockingQueueStateMachine<BlockingWork, SafeContinuation<Void, Never>>>
    /// 1 + the lane a job was just handed to, 0 when none: what a spinning
    /// lane polls. Written only under `state`'s lock (see ``SpinWindow``).
    let handOffSignal = Atomic<Int>(0)
    /// How busy the machine is, which decides whether a spin can pay
    /// (``SpinWindow``). One per executor: a read per 10 ms each.
    let runQueue = RunQueue(interval: 10_000_000)

    /// Creates an executor with `width` lanes. Threads are only used while a
    /// lane has work; an idle executor holds none.
    ///
    /// For example: `let sqlite = BlockingExecutor(width: 4, label: "sqlite")`
    ///
    /// - Parameters:
    ///   - width: The most jobs that run at once. Pick the concurrency the
    ///     blocked resource can use (a disk: 4–16; many sockets: more), not
    ///     the core count: blocked threads use no CPU.
    ///     - Precondition: `width >= 1`. A smaller width stops the process, in
    ///       release builds too, with a message naming the value.
    ///   - label: A name for the lanes' queues and for error messages.
    public init(width: Int, label: String = "BlockingExecutor") {
        checkPrecondition(
            width >= 1,
            "BlockingExecutor(width: \(width), label: \"\(label)\"): width must be at least 1 (the number of jobs that run at once)")
        self.width = width
        self.label = label
        let spin = SpinWindow.adaptive()  // one processor count for both sides
        self.state = Lock(BlockingQueueStateMachine(width: width, laneSpin: spin, callerSpin: spin))
        self.lanes = (0..<width).map { DispatchQueue(label: "\(label).lane-\($0)") }
        // Marks each lane with this executor so tests (and `isRunningOnLane`)
        // can tell where code runs.
        for lane in lanes { lane.setSpecific(key: laneKey, value: LaneMarker(owner: ObjectIdentifier(self))) }
    }

    /// A snapshot of the executor's counters.
    ///
    /// For example: `print(BlockingExecutor.shared.metrics)   // "queued 0, running 3 (peak 12), ..."`
    public var metrics: Metrics { state.withLock { $0.metrics } }

    /// Turns both spin windows off (``SpinWindow``): every hand-off then
    /// parks at once. For tests and for measuring what the windows buy;
    /// safe at any time (a lane spinning meanwhile ends its spin as usual).
    func disableSpinning() {
        state.withLock { $0.useSpin(lane: SpinWindow(isEnabled: false), caller: SpinWindow(isEnabled: false)) }
    }

    /// Whether the calling code runs on one of this executor's lanes.
    var isRunningOnLane: Bool {
        DispatchQueue.getSpecific(key: laneKey)?.owner == ObjectIdentifier(self)
    }
}

/// What a lane runs: a `run` job or a slice of a task that prefers this executor.
enum BlockingWork: Sendable {
    case job(BlockingJob)
    /// `submittedAt` is on ``MonotonicClock``.
    case slice(UnownedJob, submittedAt: UInt64)
}

struct LaneMarker {
    var owner: ObjectIdentifier
}

let laneKey = DispatchSpecificKey<LaneMarker>()
