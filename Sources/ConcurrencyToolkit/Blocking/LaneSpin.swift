/// How long a lane that ran out of work spins before it goes idle, and how
/// that adapts: a pure value kept in ``BlockingQueueState``.
///
/// **Off by default.** Measured in a plain release program on the 2-core VM
/// (Performance.md, "Primitives in a plain program"), the spin hands every
/// job over without a lane wake-up, yet the `run` round trip stays level
/// with `DispatchQueue.async` (1.08x with the spin, 1.07x without, medians
/// of interleaved runs) and the process makes the same two context switches
/// per round trip, for more CPU: libdispatch's worker already lingers
/// between jobs, and what remains is the caller's wake-up. So executors are
/// made with the spin off; ``BlockingExecutor/enableLaneSpin()`` turns it on
/// (internal: the hand-off stress test uses it, and so could a build of the
/// harness against this module measuring other hardware).
///
/// Handing a job to an idle lane wakes a thread (a futex wake-up and a
/// context switch: several microseconds, tens on a busy VM); handing it to a
/// lane that is still awake costs a store and a load. So a lane that has just
/// finished spins a little, and a job submitted meanwhile starts at once.
/// What we took from others:
/// - crossbeam's `Backoff`: spin first, then yield the core (`sched_yield`)
///   between polls, then park. Here the park is the lane going idle.
/// - Go's scheduler: at most one spinning lane per executor, and none on a
///   single core, where spinning only delays the thread that would submit.
/// - glibc's adaptive mutex and libdispatch's bounded worker spin: the
///   window is bounded and learned. It grows to twice the gap between a lane
///   going idle and the next submission when that gap was short (a spin
///   would have caught it), and halves when the gap was long, down to zero:
///   an executor whose jobs come seldom stops spinning altogether, and an
///   idle one burns nothing after its last window.
struct LaneSpin: Equatable {
    /// The longest window, in nanoseconds: well above a thread wake-up, well
    /// below anything a user would notice as CPU use.
    static let longest: UInt64 = 50_000
    /// Below this a window is not worth starting (nanoseconds).
    static let shortest: UInt64 = 500

    /// The window the next idle lane spins for, in nanoseconds (0: none).
    private(set) var budget: UInt64
    let isEnabled: Bool

    /// Off unless `isEnabled` (see above).
    init(budget: UInt64 = 20_000, isEnabled: Bool = false) {
        self.isEnabled = isEnabled
        self.budget = isEnabled ? min(budget, Self.longest) : 0
    }

    /// A spinning lane got a job `waited` nanoseconds into its window.
    mutating func caught(after waited: UInt64) {
        guard isEnabled else { return }
        budget = min(Self.longest, max(budget, waited &* 2))
    }

    /// A job found no lane spinning, `gap` nanoseconds after a lane last ran
    /// out of work: learn from how soon it came.
    mutating func missed(gap: UInt64) {
        guard isEnabled else { return }
        if gap < Self.longest {
            budget = min(Self.longest, max(budget, gap &* 2))
        } else {
            budget /= 2
            if budget < Self.shortest { budget = 0 }
        }
    }

    /// The adaptive spin: on with more than one core (Go: never on one core,
    /// where spinning only delays the thread that would submit).
    static func adaptive() -> LaneSpin { LaneSpin(isEnabled: activeProcessorCount > 1) }
}
