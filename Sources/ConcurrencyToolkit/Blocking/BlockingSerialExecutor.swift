import Dispatch

/// A `SerialExecutor` backed by one dedicated serial Dispatch queue, for an
/// actor that owns a blocking resource (a file, a SQLite handle, a device):
/// every method of the actor runs on that queue's thread, off the cooperative
/// pool, so blocking inside them starves nothing.
///
/// ```swift
/// actor LogFile {
///     private let executor = BlockingSerialExecutor(label: "log-file")
///     private let fd: Int32
///
///     nonisolated var unownedExecutor: UnownedSerialExecutor {
///         executor.asUnownedSerialExecutor()
///     }
///
///     init(path: String) { fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644) }
///
///     func append(_ line: String) {
///         _ = line.utf8CString.withUnsafeBytes { write(fd, $0.baseAddress, $0.count - 1) }  // blocks: fine here
///     }
/// }
/// ```
///
/// On Apple platforms `DispatchSerialQueue` already is a `SerialExecutor`; on
/// Linux it is not, and this type fills the hole with one code path everywhere.
///
/// `assumeIsolated` and `assertIsolated` work from any code running on
/// ``queue`` (a Dispatch source handler, a C callback delivered there), because
/// ``checkIsolated()`` and ``isIsolatingCurrentContext()`` ask the queue.
///
/// - Lifetime: an actor holds its executor unowned; keep the executor in a
///   stored property of the actor (as above) so it lives as long as the actor.
/// - Shutdown: there is none; the queue's thread is Dispatch's and is retired
///   when the queue is idle. Jobs enqueued are always run.
/// - Cancellation: task cancellation is the tasks' business; this executor
///   only decides where their slices run.
public final class BlockingSerialExecutor: SerialExecutor, Sendable {
    /// The serial queue every job runs on. Hand it to Dispatch-based APIs
    /// (sources, `DispatchIO`) whose handlers should be isolated to the actor:
    ///
    /// ```swift
    /// let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: logFile.executor.queue)
    /// source.setEventHandler { logFile.assumeIsolated { $0.drain() } }
    /// ```
    public let queue: DispatchQueue
    private let key = DispatchSpecificKey<Bool>()

    /// Creates an executor with its own serial queue.
    ///
    /// For example: `let executor = BlockingSerialExecutor(label: "sqlite.main")`
    public init(label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: true)
    }

    /// Runs an actor job on ``queue``. Called by the runtime, not by you.
    ///
    /// For example: `await logFile.append("started")   // the runtime enqueues the call here`
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { BlockingThreads.running { job.runSynchronously(on: self.asUnownedSerialExecutor()) } }
    }

    /// Stops the process unless the caller runs on ``queue``; this is what
    /// `assumeIsolated` and `assertIsolated` call when the runtime cannot tell.
    ///
    /// For example: `logFile.executor.queue.async { logFile.assumeIsolated { $0.flush() } }   // passes`
    public func checkIsolated() {
        checkPrecondition(isOnQueue, "not running on the BlockingSerialExecutor queue '\(queue.label)'")
    }

    /// Whether the caller runs on ``queue`` (never `nil`: the queue always knows).
    ///
    /// For example: `if logFile.executor.isIsolatingCurrentContext() == true { /* on the actor's queue */ }`
    @available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *)
    public func isIsolatingCurrentContext() -> Bool? {
        isOnQueue
    }

    private var isOnQueue: Bool { DispatchQueue.getSpecific(key: key) == true }
}
