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
/// of microseconds. The caller's window is what saves the round trip; the
/// lane's adds to it only together with the caller's (the caller's wake-up
/// remains otherwise). The figures are in Performance.md, "Primitives in a
/// plain program" and "Why the code is as it is".
///
/// What we took from others:
/// - crossbeam's `Backoff`: poll a few times back to back, then yield the
///   core (`sched_yield`) between polls, then park. A spinning thread does
///   not keep a thread that has work off the core.
/// - Go's scheduler: at most one spinning lane per executor, and no spinning
///   on a single core, where it only delays the thread being waited for.
/// - glibc's adaptive mutex and libdispatch's bounded worker spin: the
///   window is bounded and learned. It grows to twice a wait that was short
///   enough to catch, and halves after a long one, down to zero: an executor
///   whose jobs come seldom (the lane's window) or run long (the caller's)
///   stops spinning, and an idle one burns nothing after its last window.
/// - Go's scheduler again: no spinning while every core is busy. A spin pays
///   only while the waiter and the thread it waits for each have a core;
///   with a third runnable thread, the spinner holds a core the other side
///   needs, and `sched_yield` does not give it to another process. So the
///   executor feeds in how many threads are runnable besides its own
///   (``observe(otherRunnableThreads:)``, from ``RunQueue``) and the window is
///   none from a reading that leaves no core free until five in a row do.
///   Performance.md, "The hand-offs on a busy machine", has the evidence.
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
    /// observer and a lane of its executor that spins. The waiter and the
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
