/// The storage of a ``MonitoredActorExecutor``: its ``MonitoredQueueStateMachine`` under
/// the one lock, and the runners that drain it on the cooperative pool. It
/// locks, transitions, unlocks, then acts: no job runs and no continuation is
/// resumed under the lock.
///
/// A runner is a detached task (one per priority band, made on first use)
/// that runs the queue's jobs one after another with
/// `UnownedJob.runSynchronously(on:)`, then parks on a continuation until
/// the queue wakes it. Waking it resumes that continuation: no allocation
/// per job or per wake-up.
///
/// The runners hold this core, not the executor (which the actor owns), so
/// the executor's `deinit` can end them: ``stop()``.
final class MonitoredExecutorCore: Sendable {
    typealias Queue = MonitoredQueueStateMachine<UnownedJob, UnsafeContinuation<Bool, Never>>

    let label: String
    let createdAt = MonotonicClock.now
    let state = Lock(Queue())
    /// The recording running where the executor was created (its trace:
    /// MonitoredExecutorCore+Trace.swift); nil almost always. Weak: a
    /// long-lived actor does not keep a finished recording's events alive.
    weak let recorder: TraceRecorder?
    /// Created outside any recording: its events go to every recording
    /// running when they happen.
    let tracesEveryRecording: Bool

    init(label: String) {
        self.label = label
        let recorder = Instrumentation.currentRecorder
        self.recorder = recorder
        tracesEveryRecording = recorder == nil
    }

    /// Queues `job`; `executor` is the one it runs isolated to. Runners keep
    /// it unowned: they run only while the executor has jobs, so it is alive
    /// then (a job keeps its actor, and the actor its executor).
    func enqueue(_ job: UnownedJob, executor: UnownedSerialExecutor) {
        let now = MonotonicClock.now
        let tracing = isTracing
        let (action, changes) = state.withLock { queue in
            (queue.enqueue(job, priority: job.priority.rawValue, now: now), tracing ? queue.traceChanges : nil)
        }
        // Before the wake: once the job runs, its caller may end the recording.
        if let changes { traceQueued(changes) }
        perform(action, executor: executor)
    }

    /// Ends the parked runners (the executor is going away).
    func stop() {
        let wakers = state.withLock { $0.stop() }
        for waker in wakers { waker.resume(returning: false) }
    }

    private func perform(_ action: Queue.WakeAction, executor: UnownedSerialExecutor) {
        switch action {
        case .none:
            break
        case .resume(let waker):
            waker.resume(returning: true)
        case .spawn(let band):
            Task.detached(priority: Self.priorities[band]) { [self] in await run(band: band, executor: executor) }
        }
    }

    private static let priorities: [TaskPriority] = [.background, .low, .medium, .high]

    /// A runner's life: drain, park, repeat, until the executor is gone.
    private func run(band: Int, executor: UnownedSerialExecutor) async {
        while true {
            drain(band: band, executor: executor)
            let goOn = await withUnsafeContinuation { (waker: UnsafeContinuation<Bool, Never>) in
                let action = state.withLock { $0.park(band: band, waker: waker) }
                if case .resumeNow(let goOn) = action { waker.resume(returning: goOn) }
            }
            if !goOn { return }
        }
    }

    /// Runs jobs until the queue is empty or a higher band's runner should take over.
    private func drain(band: Int, executor: UnownedSerialExecutor) {
        let thread = CurrentThread.id
        var finished = false
        var traceID: UInt64 = 0  // the running job's id in the trace; 0: not traced
        var now = MonotonicClock.now
        while true {
            let tracing = traceID != 0 || isTracing
            let (action, changes) = state.withLock { queue in
                (queue.next(band: band, now: now, finished: finished, thread: thread), tracing ? queue.traceChanges : nil)
            }
            if let changes {
                let starts = if case .run = action { true } else { false }
                traceID = traceStep(changes, finishedID: finished ? traceID : nil, starts: starts)
            }
            switch action {
            case .run(let job):
                job.runSynchronously(on: executor)
                finished = true
                now = MonotonicClock.now
            case .idle:
                return
            case .handOff(let wake):
                perform(wake, executor: executor)
                return
            }
        }
    }
}
