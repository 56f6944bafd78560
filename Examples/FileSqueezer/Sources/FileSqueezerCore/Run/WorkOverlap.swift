/// The run's parallelism as the walkthrough defines it: the time files were
/// being compressed, added up over every job and counting at most `cores`
/// at any moment, over the wall time. 1.00x is one file at a time, 2.00x two
/// at once all along; on a machine of two cores, both cores.
///
/// ```swift
/// var overlap = WorkOverlap(cores: 2, start: start)
/// overlap.begin(at: start)                                // job A
/// overlap.begin(at: start + .milliseconds(500))           // job B
/// overlap.end(at: start + .seconds(1))                    // both
/// overlap.end(at: start + .seconds(1))
/// overlap.parallelism(at: start + .seconds(1))            // 1.5
/// ```
///
/// It counts the time a compression was under way, whether or not the
/// kernel let its thread have a core, so other processes on a busy machine
/// do not lower it (the process's CPU time over the wall time, which they
/// do lower, read about 0.67x for every strategy at load 4–6; issue 39).
/// The cap keeps it at most the core count when more jobs than cores share
/// them (`--jobs 8` on two cores: the jobs' times add up to about 6x).
/// A pure value: ``WorkMeter`` holds it under a lock.
struct WorkOverlap: Sendable, Equatable {
    let cores: Int
    private(set) var start: ContinuousClock.Instant
    /// Jobs compressing now.
    private(set) var active = 0
    private var lastChange: ContinuousClock.Instant
    /// The time under way, in core-seconds, up to `lastChange`.
    private var busy = Duration.zero

    init(cores: Int, start: ContinuousClock.Instant) {
        self.cores = max(1, cores)
        self.start = start
        lastChange = start
    }

    /// A job started compressing at `instant`.
    mutating func begin(at instant: ContinuousClock.Instant) {
        advance(to: instant)
        active += 1
    }

    /// A job that began stopped at `instant`. An end without its begin is
    /// ignored (never a negative count).
    mutating func end(at instant: ContinuousClock.Instant) {
        advance(to: instant)
        active = max(0, active - 1)
    }

    /// The jobs' time under way (at most `cores` at once) over the time
    /// since `start`, at `instant`; 0 before any time has passed.
    func parallelism(at instant: ContinuousClock.Instant) -> Double {
        var copy = self
        copy.advance(to: instant)
        let wall = copy.lastChange - start
        return wall > .zero ? copy.busy / wall : 0
    }

    /// Instants that arrive out of order (two threads read the clock, then
    /// take the lock in the other order) count from the latest one seen.
    private mutating func advance(to instant: ContinuousClock.Instant) {
        guard instant > lastChange else { return }
        busy += (instant - lastChange) * min(active, cores)
        lastChange = instant
    }
}

/// The lock around a run's ``WorkOverlap``: ``RunChannels`` calls
/// ``began()`` and ``ended()`` when a job starts and stops compressing a
/// whole file (stages 1 and 2) or a unit (stage 3: a segment or a batch of
/// small files), from whatever thread runs it.
///
/// ```swift
/// let meter = WorkMeter(cores: 2)
/// meter.began(); defer { meter.ended() }
/// print(meter.parallelism())
/// ```
///
/// One lock per unit of work, taken twice, never across the work itself.
final class WorkMeter: Sendable {
    private let overlap: VisibleMutex<WorkOverlap>

    init(cores: Int, start: ContinuousClock.Instant = .now) {
        overlap = VisibleMutex(WorkOverlap(cores: cores, start: start))
    }

    // The clock is read under the lock, so the instants arrive in order.

    /// A job started compressing.
    func began() { overlap.withLock { $0.begin(at: .now) } }

    /// A job that began stopped compressing.
    func ended() { overlap.withLock { $0.end(at: .now) } }

    /// The run's parallelism until now (see ``WorkOverlap``).
    func parallelism(at instant: ContinuousClock.Instant = .now) -> Double {
        overlap.withLock { $0.parallelism(at: instant) }
    }
}
