import ConcurrencyToolkit
import Dispatch
import HarnessSupport
import Synchronization

// `ThrottledProgress`'s delivery as a hand-off (issue 40's busy-machine
// column): one report, then wait until the handler has run with it, back to
// back, beside the two hops a user would otherwise write, a
// `DispatchQueue.async` (Cases.swift) and a default actor's method. With a
// zero interval every report is delivered; the time is the report's way to
// the handler's task and back to the waiting caller. Beside them, the hop
// onto an actor on `MonitoredActorExecutor` and on `BlockingSerialExecutor`
// (HarnessSupport/HopCounters.swift), call by call for their p99: the
// actor-executor cases (ActorCases.swift) time whole rounds.

/// Where a delivered value meets the caller waiting for it.
final class DeliveryMailbox: Sendable {
    private struct State {
        var delivered = -1
        var awaited = Int.max
        var waiter: CheckedContinuation<Int, Never>?
    }
    private let state = Mutex(State())

    /// Returns once `value` (or a later one) was delivered.
    func wait(for value: Int) async -> Int {
        await withCheckedContinuation { waiter in
            let ready = state.withLock { state in
                if state.delivered >= value { return true }
                (state.awaited, state.waiter) = (value, waiter)
                return false
            }
            if ready { waiter.resume(returning: value) }
        }
    }

    /// The handler: records `value` and resumes the caller if it waits for it.
    func deliver(_ value: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Int, Never>? in
            state.delivered = value
            guard value >= state.awaited, let waiter = state.waiter else { return nil }
            (state.awaited, state.waiter) = (.max, nil)
            return waiter
        }
        waiter?.resume(returning: value)  // after the lock
    }
}

/// The delivery cases, timed call by call (rows "…, p99" too).
func deliveryCases(slow: Int) -> [Case] {
    let mailbox = DeliveryMailbox()
    let progress = ThrottledProgress<Int>(interval: .zero) { value in mailbox.deliver(value) }
    let counter = DefaultHopCounter()
    let monitored = MonitoredHopCounter(label: "harness")
    let serial = BlockingSerialHopCounter(label: "harness")
    return [
        .timedEach("`ThrottledProgress` delivery, interval zero, back to back", slow) { i in
            progress.report(i)
            return await mailbox.wait(for: i)
        },
        .timedEach("default actor hop, back to back", slow) { _ in
            await counter.increment()
        },
        .timedEach("`MonitoredActorExecutor` hop, back to back", slow) { _ in
            await monitored.increment()
        },
        .timedEach("`BlockingSerialExecutor` hop, back to back", slow) { _ in
            await serial.increment()
        },
    ]
}
