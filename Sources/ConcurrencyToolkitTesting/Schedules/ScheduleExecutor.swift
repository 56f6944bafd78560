import ConcurrencyToolkit
import Dispatch

/// The executor of one schedule: the body's task prefers it
/// (`withTaskExecutorPreference`, SE-0417), so the body, its child tasks and
/// the default actors they call enqueue here, and nothing of any other test
/// does. ``drive(deadlockGrace:stepLimit:abandonsStuck:)`` runs them one at a time on one
/// thread, in the order the seed picks.
///
/// A `Task.sleep` of the body does not reach it until the sleep ends: on
/// Swift 6.3 a sleep goes to the nearest `SchedulingExecutor` (toolchain
/// SPI, which the package does not use), else to the default executor,
/// straight to Dispatch; the runtime's deadline hooks are never called on
/// Linux. So sleeps run on real time (the guide's "Time" has the evidence).
/// A sleep on `ScheduleClock` comes here instead (``sleep(until:)``) and
/// waits on the schedule's virtual time, which the driver moves when
/// nothing can run.
///
/// The storage of ``ScheduleStateMachine``: lock, transition, unlock, then
/// act; no job runs and no thread is woken under the lock.
final class ScheduleExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: the state is behind `state`'s lock, the rest is immutable.

    /// How a schedule ended, for the exploration to turn into a result.
    enum End: Sendable {
        case finished
        /// Nothing could run for the grace period and the body had not returned.
        case deadlock(steps: Int)
        /// The step limit was reached before the body returned.
        case tooLong(steps: Int)
    }

    /// Resumed with nil when virtual time reaches the deadline, or with the
    /// time still to sleep, on real time, when the schedule ended first.
    typealias Waker = UnsafeContinuation<Duration?, any Error>

    private let state: Lock<ScheduleStateMachine<UnownedJob, Waker>>
    private let wakeUp = DispatchSemaphore(value: 0)
    /// Virtual time 0, and when the schedule ended: its clock reads
    /// `origin` plus virtual time, then real time goes on from there.
    private let origin = ContinuousClock.now
    private let endedAt = Lock<ContinuousClock.Instant?>(nil)

    init(strategy: ScheduleStrategy, seed: UInt64) {
        state = Lock(ScheduleStateMachine(strategy: strategy, seed: seed))
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        act(on: state.withLock { $0.enqueue(job, key: Self.key(of: job)) })
    }

    /// Runs the schedule's jobs on the calling thread until the body has
    /// returned and what it left is drained, or the schedule deadlocks or
    /// runs too long. Call it once, on a thread of its own.
    ///
    /// A stuck schedule's jobs are dropped from then on when `abandonsStuck`
    /// (its tasks never run again); otherwise they run concurrently, so
    /// that a cancelled body can still end.
    func drive(deadlockGrace: Duration, stepLimit: Int, abandonsStuck: Bool) -> End {
        let me = asUnownedTaskExecutor()
        while true {
            let (next, phase, steps) = state.withLock { ($0.next(), $0.phase, $0.steps) }
            switch next {
            case .run(let job):
                if steps > stepLimit {
                    // Not run here: it goes with the rest of the stuck schedule.
                    _ = end(abandoned: abandonsStuck, onlyIfIdle: false, plus: job)
                    return .tooLong(steps: steps)
                }
                job.runSynchronously(on: me)
            case .idle(sleepers: true):
                // Nothing can run: time moves, at once (waiting for work from
                // outside would make the order depend on real time).
                for waker in state.withLock({ $0.advanceTime() }) { waker.resume(returning: nil) }
            case .idle(sleepers: false):
                if phase == .draining {
                    if end(abandoned: false, onlyIfIdle: true) { return .finished }
                } else if wakeUp.wait(timeout: .now() + Self.interval(deadlockGrace)) == .timedOut {
                    if end(abandoned: abandonsStuck, onlyIfIdle: true) { return .deadlock(steps: steps) }
                }
            }
        }
    }

    /// Jobs run so far.
    var steps: Int { state.withLock { $0.steps } }

    /// The body returned or threw; called from its task, on the driver thread.
    func bodyFinished() {
        state.withLock { $0.bodyFinished() }
    }

    /// Ends the schedule, then forwards or drops what was left (and `job`).
    /// False when a job became runnable meanwhile and `onlyIfIdle`.
    private func end(abandoned: Bool, onlyIfIdle: Bool, plus job: UnownedJob? = nil) -> Bool {
        guard let left = state.withLock({ $0.end(abandoned: abandoned, onlyIfIdle: onlyIfIdle) }) else { return false }
        endedAt.withLock { $0 = ContinuousClock.now }
        // Abandoned: the stuck tasks' sleepers stay asleep, as their jobs are dropped.
        guard !abandoned else { return true }
        for job in left.jobs + (job.map { [$0] } ?? []) { runConcurrently(job) }
        for sleeper in left.sleepers { sleeper.waker.resume(returning: max(.zero, sleeper.left)) }
        return true
    }

    /// `ScheduleClock.now` in this schedule: virtual time, then, once it
    /// ended, real time from where virtual time stopped.
    var now: ContinuousClock.Instant {
        let virtual = state.withLock { $0.now }
        guard let ended = endedAt.withLock({ $0 }) else { return origin + virtual }
        return origin + virtual + (ContinuousClock.now - ended)
    }

    /// A `ScheduleClock` sleep of a task of this schedule (or one it made):
    /// waits until virtual time reaches `deadline`; cancellation throws
    /// `CancellationError`. Once the schedule is over, sleeps on real time.
    func sleep(until deadline: ContinuousClock.Instant) async throws {
        let id = state.withLock { $0.startSleep() }
        let left: Duration? = try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (waker: Waker) in
                switch state.withLock({ $0.sleep(id, until: origin.duration(to: deadline), waker: waker) }) {
                case .asleep: wakeUp.signal()
                case .due: waker.resume(returning: nil)
                case .cancelled: waker.resume(throwing: CancellationError())
                case .ended: waker.resume(returning: now.duration(to: deadline))
                }
            }
        } onCancel: {
            state.withLock { $0.cancelSleep(id) }?.resume(throwing: CancellationError())
        }
        if let left, left > .zero { try await ContinuousClock().sleep(for: left) }
    }

    private func act(on enqueued: ScheduleStateMachine<UnownedJob, Waker>.Enqueued) {
        switch enqueued {
        case .queued: wakeUp.signal()
        case .drop: break
        case .forward(let job): runConcurrently(job)
        }
    }

    /// After the schedule: the job runs on a Dispatch thread, as on this
    /// executor (handing it to the global pool would send it back here,
    /// since its task prefers this executor).
    private func runConcurrently(_ job: UnownedJob) {
        DispatchQueue.global().async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }

    /// The id of the job's task: the runtime numbers tasks once and never
    /// reuses a number, where an address is reused as soon as a task is
    /// freed (and how soon depends on the allocator's state, so on other
    /// threads: a replay would number tasks differently). 0 for a job that is
    /// not a task.
    private static func key(of job: UnownedJob) -> UInt {
        UInt(truncatingIfNeeded: jobTaskID(job))
    }

    private static func interval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        // Clamped to a day: Dispatch's nanoseconds are an Int.
        return .nanoseconds(Int(min(seconds, 86_400) * 1_000_000_000 + attoseconds / 1_000_000_000))
    }
}

/// The runtime's number for the job's task, as `UnownedJob.description`
/// prints it (`UnownedJob(id: 12)`): public API, where the runtime's
/// accessor itself is not.
private func jobTaskID(_ job: UnownedJob) -> UInt64 {
    let text = job.description
    guard let open = text.lastIndex(of: ":") else { return 0 }
    return UInt64(text[text.index(after: open)...].filter(\.isNumber)) ?? 0
}
