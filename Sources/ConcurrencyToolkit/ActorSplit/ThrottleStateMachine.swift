/// The throttling mechanism as a pure value: events in, actions out, no locks,
/// no tasks, no clocks. Times are offsets from the reporter's creation.
///
/// One "pump" task at most is alive per reporter. It is started by the first
/// report after a quiet period, delivers, sleeps until the next slot, and
/// ends after a slot with nothing to deliver.
///
/// `Waiter` (a `finish()` caller) and `Pump` (a task handle) are opaque here,
/// so the tests drive this type with plain integers.
@usableFromInline
struct ThrottleStateMachine<Buffer: ThrottleBuffer, Waiter, Pump> {
    @usableFromInline
    enum Phase {
        case idle
        /// `pump` is nil until the task that was just started is attached.
        case pumping(id: UInt64, pump: Pump?)
        case finishing(id: UInt64, pump: Pump?)
        case finished
        case cancelled
    }

    @usableFromInline var phase: Phase = .idle
    @usableFromInline var buffer: Buffer
    @usableFromInline var nextPumpID: UInt64 = 0
    @usableFromInline var refusedCount = 0
    let interval: Duration
    var lastDelivery: Duration?
    var waiters: [Waiter] = []
    private(set) var deliveryCount = 0

    init(buffer: Buffer, interval: Duration) {
        checkPrecondition(
            interval >= .zero,
            "ThrottledProgress, KeyedThrottledProgress or BatchingReporter (interval: \(interval)): interval must be zero or more (.zero delivers every report)")
        self.buffer = buffer
        self.interval = interval
    }

    // MARK: report

    @usableFromInline
    enum ReportAction: Equatable {
        case none
        case startPump(id: UInt64)
        /// The buffer was full, or the reporter has stopped.
        case refused
    }

    @inlinable
    mutating func report(_ input: Buffer.Input) -> (action: ReportAction, leftover: Buffer.Input?) {
        switch phase {
        case .finishing, .finished, .cancelled:
            // Once finish() was called nothing new is accepted, so the final
            // delivery is bounded even if producers keep reporting.
            return (.refused, input)
        case .pumping:
            let (accepted, leftover) = buffer.add(input)
            if !accepted { refusedCount += 1 }
            return (accepted ? .none : .refused, leftover)
        case .idle:
            let (accepted, leftover) = buffer.add(input)
            guard accepted else {
                refusedCount += 1
                return (.refused, leftover)
            }
            nextPumpID &+= 1
            phase = .pumping(id: nextPumpID, pump: nil)
            return (.startPump(id: nextPumpID), leftover)
        }
    }

    // MARK: the pump's life

    /// Attaches a just-started pump. Returns true when it must be woken at
    /// once: a `finish()` or `cancel()` came before it was attached (and so
    /// could not wake it), or it is stale and has already ended.
    mutating func pumpStarted(id: UInt64, _ pump: Pump) -> Bool {
        switch phase {
        case .pumping(id, nil):
            phase = .pumping(id: id, pump: pump)
            return false
        case .finishing(id, nil):
            phase = .finishing(id: id, pump: pump)
            return true
        default:
            return true
        }
    }

    enum PumpStep {
        case sleep(until: Duration)
        case deliver(Buffer.Batch)
        /// Nothing more to do; the pump task ends.
        case exit
        /// The final value was delivered: resume the `finish()` callers, then end.
        case finish([Waiter])
    }

    /// What pump `id` does next, at time `now`.
    mutating func nextStep(pumpID id: UInt64, now: Duration) -> PumpStep {
        switch phase {
        case .pumping(id, _):
            if let lastDelivery, now < lastDelivery + interval {
                return .sleep(until: lastDelivery + interval)
            }
            if buffer.isEmpty {
                phase = .idle
                return .exit
            }
            return deliver(at: now)
        case .finishing(id, _):
            // The final value goes out at once: finish() should not wait out the interval.
            if !buffer.isEmpty { return deliver(at: now) }
            phase = .finished
            defer { waiters = [] }
            return .finish(waiters)
        default:
            return .exit
        }
    }

    private mutating func deliver(at now: Duration) -> PumpStep {
        lastDelivery = now
        deliveryCount += 1
        return .deliver(buffer.take())
    }

    // MARK: finish and cancel

    enum FinishAction {
        /// Nothing is or will be pending: the caller returns at once.
        /// `stopped` is true when this call ended the reporter.
        case resume(Waiter, stopped: Bool)
        /// The caller waits for the pump; wake it if it is attached.
        case wait(wake: Pump?)
    }

    mutating func finish(_ waiter: Waiter) -> FinishAction {
        switch phase {
        case .idle:
            phase = .finished
            return .resume(waiter, stopped: true)
        case .pumping(let id, let pump):
            phase = .finishing(id: id, pump: pump)
            waiters.append(waiter)
            return .wait(wake: pump)
        case .finishing:
            waiters.append(waiter)
            return .wait(wake: nil)
        case .finished, .cancelled:
            return .resume(waiter, stopped: false)
        }
    }

    struct CancelAction {
        var wake: Pump?
        var waiters: [Waiter] = []
        /// Dropped by the caller after the lock is released.
        var discarded: Buffer.Batch?
        var stopped = false
    }

    mutating func cancel() -> CancelAction {
        switch phase {
        case .finished, .cancelled:
            return CancelAction()
        case .idle:
            phase = .cancelled
            return CancelAction(stopped: true)
        case .pumping(_, let pump), .finishing(_, let pump):
            phase = .cancelled
            var action = CancelAction(wake: pump, waiters: waiters, stopped: true)
            waiters = []
            if !buffer.isEmpty { action.discarded = buffer.take() }
            return action
        }
    }
}

extension ThrottleStateMachine: Sendable where Buffer: Sendable, Waiter: Sendable, Pump: Sendable {}
extension ThrottleStateMachine.Phase: Sendable where Pump: Sendable {}
// Actions leave the lock and are performed outside it, so they must be Sendable.
extension ThrottleStateMachine.ReportAction: Sendable {}
extension ThrottleStateMachine.PumpStep: Sendable where Waiter: Sendable {}
extension ThrottleStateMachine.FinishAction: Sendable where Waiter: Sendable, Pump: Sendable {}
extension ThrottleStateMachine.CancelAction: Sendable where Waiter: Sendable, Pump: Sendable {}
