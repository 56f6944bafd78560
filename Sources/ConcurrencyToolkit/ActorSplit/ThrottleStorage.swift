import Synchronization

/// The thin, locked shell around ``ThrottleStateMachine`` (see ``Lock``
/// for why it is not `Synchronization.Mutex` on Linux): lock, transition,
/// unlock, then act (start or wake the pump, deliver, resume `finish()` callers).
/// Nothing here runs user code or resumes a continuation while holding the lock.
///
/// The pump task holds the storage strongly only while it runs, and it ends
/// within one interval of the last report or at once on finish/cancel, so
/// dropping the public reporter (which cancels) never leaves a task behind.
@usableFromInline
final class ThrottleStorage<Buffer: ThrottleBuffer>: Sendable {
    @usableFromInline
    typealias Machine = ThrottleStateMachine<Buffer, SafeContinuation<Void, Never>, Task<Void, Never>>

    @usableFromInline let machine: Lock<Machine>
    private let clock: ThrottleClock
    private let deliver: @isolated(any) @Sendable (Buffer.Batch) async -> Void
    /// Runs once, after the reporter finished or was cancelled (the stream view ends its stream here).
    private let onStop: (@Sendable () -> Void)?
    /// How many pump tasks were ever started: the "tasks created" figure.
    private let pumpsStarted = Atomic<Int>(0)
    /// The recording active where the reporter was created, if any: captured
    /// then because reports may come from threads that run no task.
    private let trace: TraceRecorder?

    init(
        buffer: sending Buffer, interval: Duration, clock: ThrottleClock,
        onStop: (@Sendable () -> Void)? = nil,
        deliver: @escaping @isolated(any) @Sendable (Buffer.Batch) async -> Void
    ) {
        machine = Lock(Machine(buffer: buffer, interval: interval))
        self.clock = clock
        self.onStop = onStop
        self.deliver = deliver
        trace = Instrumentation.currentRecorder
    }

    /// Runs `body` on the state machine under the lock; every access goes through here.
    @inlinable
    func withMachine<Result>(_ body: (inout Machine) -> Result) -> Result {
        machine.withLock { body(&$0) }
    }

    /// The hot path: one uncontended lock, one buffer store; a task only when
    /// the reporter was idle. Returns false when the report was refused.
    @inlinable
    func report(_ input: Buffer.Input) -> Bool {
        let (action, leftover) = withMachine { $0.report(input) }
        _ = leftover  // a replaced value dies here, outside the lock
        switch action {
        case .none: return true
        case .refused: return false
        case .startPump(let id):
            startPump(id: id)
            return true
        }
    }

    @usableFromInline
    func startPump(id: UInt64) {
        pumpsStarted.add(1, ordering: .relaxed)
        let pump = Task { await self.pump(id: id) }
        if withMachine({ $0.pumpStarted(id: id, pump) }) { pump.cancel() }
    }

    private func pump(id: UInt64) async {
        while true {
            let now = clock.now()
            switch withMachine({ $0.nextStep(pumpID: id, now: now) }) {
            case .sleep(let deadline):
                // Cancellation is only ever used to wake the pump for finish/cancel;
                // the next step reads the phase and decides.
                try? await clock.sleep(deadline)
            case .deliver(let batch):
                let delivery = trace?.begin(.deliveryStarted(Buffer.deliveryKind, count: Buffer.valueCount(of: batch)))
                await deliver(batch)
                // Before the loop comes back to resume `finish()` callers.
                delivery?.end(.deliveryFinished)
            case .exit:
                return
            case .finish(let waiters):
                onStop?()
                for waiter in waiters { waiter.resume() }
                return
            }
        }
    }

    /// Waits at the caller's site (the public `finish`'s), so a trace and
    /// ``PendingContinuations`` name the user's line, not this one.
    func finish(at site: CallSite) async {
        await withSafeContinuation(ifLeaked: (), function: site.function, fileID: site.fileID, line: site.line) { waiter in
            switch withMachine({ $0.finish(waiter) }) {
            case .resume(let waiter, let stopped):
                if stopped { onStop?() }
                waiter.resume()
            case .wait(let pump):
                pump?.cancel()
            }
        }
    }

    func cancel() {
        let action = withMachine { $0.cancel() }
        action.wake?.cancel()
        if action.stopped { onStop?() }
        for waiter in action.waiters { waiter.resume() }
        _ = action.discarded
    }

    // MARK: figures for tests and documentation

    var phase: Machine.Phase { withMachine { $0.phase } }
    var deliveryCount: Int { withMachine { $0.deliveryCount } }
    var pumpTaskCount: Int { pumpsStarted.load(ordering: .relaxed) }
    var droppedCount: Int { withMachine { $0.refusedCount } }
}
