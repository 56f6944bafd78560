import ConcurrencyToolkit
import Dispatch

/// The executor of one schedule, which the body's task prefers (SE-0417):
/// ``drive(deadlockGrace:stepLimit:abandonsStuck:)`` runs its jobs one at a
/// time on one thread, in the seed's order. `Task.sleep` never reaches it
/// (Documentation/MakingRacesReproducible.md, "Time"); `ScheduleClock` does.
/// The storage of ``ScheduleStateMachine``: no job runs under the lock.
final class ScheduleExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: the state is behind `state`'s lock, the rest is immutable.

    enum End: Sendable {
        case finished
        case deadlock(steps: Int)
        case tooLong(steps: Int)
    }

    /// Resumed with nil at the deadline, or with the real time still to sleep.
    typealias Waker = UnsafeContinuation<Duration?, any Error>

    private let state: Lock<ScheduleStateMachine<UnownedJob, Waker>>
    private let wakeUp = DispatchSemaphore(value: 0)
    /// Virtual time 0, and when the schedule ended (real time goes on from there).
    private let origin = ContinuousClock.now
    private let endedAt = Lock<ContinuousClock.Instant?>(nil)

    init(strategy: ScheduleStrategy, seed: UInt64) {
        state = Lock(ScheduleStateMachine(strategy: strategy, seed: seed))
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        act(on: state.withLock { $0.enqueue(job, key: Self.key(of: job)) })
    }

    /// Runs the jobs on the calling thread, its own, until the body returned and
    /// was drained, or the schedule is stuck; then its later jobs are dropped
    /// when `abandonsStuck`, else run concurrently so a cancelled body can end.
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
                // At once: waiting for outside work would make the order depend on real time.
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

    var steps: Int { state.withLock { $0.steps } }

    /// Called from the body's task, on the driver thread.
    func bodyFinished() {
        state.withLock { $0.bodyFinished() }
    }

    /// Ends the schedule, then forwards or drops what was left (and `job`); false when refused.
    private func end(abandoned: Bool, onlyIfIdle: Bool, plus job: UnownedJob? = nil) -> Bool {
        guard let left = state.withLock({ $0.end(abandoned: abandoned, onlyIfIdle: onlyIfIdle) }) else { return false }
        endedAt.withLock { $0 = ContinuousClock.now }
        // Abandoned: the stuck tasks' sleepers stay asleep, as their jobs are dropped.
        guard !abandoned else { return true }
        for job in left.jobs + (job.map { [$0] } ?? []) { runConcurrently(job) }
        for sleeper in left.sleepers { sleeper.waker.resume(returning: max(.zero, sleeper.left)) }
        return true
    }

    /// `ScheduleClock.now`: virtual time, then real time from where it stopped.
    var now: ContinuousClock.Instant {
        let virtual = state.withLock { $0.now }
        guard let ended = endedAt.withLock({ $0 }) else { return origin + virtual }
        return origin + virtual + (ContinuousClock.now - ended)
    }

    /// A `ScheduleClock` sleep: on virtual time, then on real time once the schedule is over.
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

    /// On a Dispatch thread: the global pool would send it back here, as its task prefers this executor.
    private func runConcurrently(_ job: UnownedJob) {
        DispatchQueue.global().async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }

    /// The job's task id (0 if none): never reused, where an address is reused
    /// as the allocator pleases and a replay would number tasks differently.
    private static func key(of job: UnownedJob) -> UInt {
        UInt(truncatingIfNeeded: jobTaskID(job))
    }

    private static func interval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        // Clamped to a day: Dispatch's nanoseconds are an Int.
        return .nanoseconds(Int(min(seconds, 86_400) * 1_000_000_000 + attoseconds / 1_000_000_000))
    }
}

/// The task id `UnownedJob.description` prints (`UnownedJob(id: 12)`): the runtime's accessor is not public.
private func jobTaskID(_ job: UnownedJob) -> UInt64 {
    let text = job.description
    guard let open = text.lastIndex(of: ":") else { return 0 }
    return UInt64(text[text.index(after: open)...].filter(\.isNumber)) ?? 0
}
