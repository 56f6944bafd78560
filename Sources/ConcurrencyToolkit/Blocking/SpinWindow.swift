#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How long a thread that waits on the other side of a hand-off spins before
/// it parks, and how that adapts: a pure value kept in ``BlockingQueueStateMachine``.
/// ``BlockingExecutor`` keeps two, one per side of a `run` round trip:
///
/// - **The lane's**: a lane that ran out of work spins before it goes idle,
///   so a job submitted meanwhile is handed to it with a store instead of a
///   `DispatchQueue.async` that wakes a thread.
/// - **The caller's**: `run` submits the job, then polls for its result
///   before the task suspends, so a job that finishes meanwhile resumes the
///   caller without a wake-up (a continuation resumed before its task
///   suspends lets the task go on at once; the runtime enqueues nothing).
///
/// Waking a parked thread costs a futex wake-up and a context switch, tens
/// of microseconds; the caller's window is what saves it (Performance.md,
/// "Why the code is as it is").
///
/// Borrowed: crossbeam's `Backoff` (poll, then `sched_yield` between polls,
/// then park); Go's scheduler (one spinning lane per executor, none on a
/// single core, none while every core is busy: ``observe(otherRunnableThreads:)``
/// from ``RunQueue`` closes the window until five readings in a row leave a
/// core free); glibc's adaptive mutex (a bounded, learned window that grows
/// to twice a wait short enough to catch and halves after a long one, down
/// to zero, so a seldom-used or long-running executor stops spinning).
struct SpinWindow: Equatable {
    /// The longest window, in nanoseconds: well above a thread wake-up, well
    /// below anything a user would notice as CPU use.
    static let longest: UInt64 = 50_000
    /// Below this a window is not worth starting (nanoseconds).
    static let shortest: UInt64 = 500

    /// The learned window, in nanoseconds (0: none): what the next wait
    /// spins for while a core is free (``window``).
    private(set) var budget: UInt64
    let isEnabled: Bool
    /// The cores this process may run on.
    let cores: Int
    /// Run-queue readings in a row that left a core free for both sides,
    /// up to ``freeReadingsToSpin``.
    private(set) var freeReadings = Self.freeReadingsToSpin
    /// Free readings in a row it takes to spin again after a busy one.
    /// Quick to stop, slow to resume: a spin on a busy machine can cost a
    /// time slice (milliseconds), a park on an idle one a wake-up
    /// (microseconds).
    static let freeReadingsToSpin = 5

    /// The last busy run-queue reading is fewer than ``freeReadingsToSpin``
    /// readings ago.
    var coresAreBusy: Bool { freeReadings < Self.freeReadingsToSpin }

    /// Off unless `isEnabled`.
    init(budget: UInt64 = 20_000, isEnabled: Bool, cores: Int = 2) {
        self.isEnabled = isEnabled
        self.cores = cores
        self.budget = isEnabled ? min(budget, Self.longest) : 0
    }

    /// What the next wait spins for, in nanoseconds (0: it parks at once):
    /// the learned budget, or none while the cores are busy.
    var window: UInt64 { coresAreBusy ? 0 : budget }

    /// A run-queue reading: `others` threads were runnable, not counting the
    /// observer and one lane of its executor (spinning, running a job, or
    /// just back from one: ``BlockingQueueStateMachine``). The waiter and the
    /// thread it waits for need a core each; with fewer left, no window
    /// until ``freeReadingsToSpin`` readings in a row leave them. The
    /// learned budget is kept meanwhile.
    mutating func observe(otherRunnableThreads others: Int) {
        guard isEnabled else { return }
        freeReadings = others + 2 > cores ? 0 : min(freeReadings + 1, Self.freeReadingsToSpin)
    }

    /// A spinning thread got what it waited for `waited` nanoseconds in.
    mutating func caught(after waited: UInt64) {
        guard isEnabled else { return }
        budget = min(Self.longest, max(budget, waited &* 2))
    }

    /// What the window waits for came `gap` nanoseconds after the wait began,
    /// whether or not anything spun: learn from how soon it came.
    mutating func learn(gap: UInt64) {
        guard isEnabled else { return }
        if gap < Self.longest {
            caught(after: gap)  // a spin this long would have caught it
        } else {
            budget /= 2
            if budget < Self.shortest { budget = 0 }
        }
    }

    /// The adaptive window: on with more than one core.
    static func adaptive() -> SpinWindow {
        let cores = activeProcessorCount
        return SpinWindow(isEnabled: cores > 1, cores: cores)
    }

    /// Polls `isDone` for up to `budget` nanoseconds: 64 polls back to back,
    /// then yielding the core between polls (crossbeam's `Backoff`). Returns
    /// how long it waited, and whether `isDone` turned true.
    static func spin(nanoseconds budget: UInt64, until isDone: () -> Bool) -> (waited: UInt64, done: Bool) {
        let start = MonotonicClock.now
        var polls = 0
        while !isDone() {
            let waited = MonotonicClock.now &- start
            if waited >= budget { return (waited, false) }
            polls += 1
            if polls > 64 { sched_yield() }
        }
        return (MonotonicClock.now &- start, true)
    }
}
