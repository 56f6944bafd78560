/// One schedule's jobs, as a pure value: events in, what to do out; no lock,
/// no thread. `ScheduleExecutor` holds it under its lock and does what it
/// says after unlocking.
///
/// Jobs wait in enqueue order; the picker chooses among them. There is no
/// virtual time: on Swift 6.3 no sleep reaches a schedule before it ends
/// (Documentation/MakingRacesReproducible.md, "Time").
struct ScheduleStateMachine<Job> {
    enum Phase: Equatable {
        /// The body runs; jobs are picked one at a time.
        case exploring
        /// The body finished; what is left is drained, then the schedule ends.
        case draining
        /// Over: later jobs run at once, concurrently (`forward`), or never
        /// (`abandoned`, after a deadlock: they belong to stuck tasks).
        case ended(abandoned: Bool)
    }

    enum Enqueued {
        case queued
        /// Run it now, anywhere: the schedule is over.
        case forward(Job)
        /// Never run it: the schedule was abandoned.
        case drop
    }

    enum Next {
        case run(Job)
        /// Nothing can run now.
        case idle
    }

    private struct Entry {
        let job: Job
        let task: Int
    }

    private var runnable: [Entry] = []
    private var tasks: [UInt: Int] = [:]
    private var picker: SchedulePicker
    private(set) var phase = Phase.exploring

    init(strategy: ScheduleStrategy, seed: UInt64) {
        picker = SchedulePicker(strategy: strategy, seed: seed)
    }

    /// Jobs run so far.
    var steps: Int { picker.step }

    /// A job that can run now. `key` identifies its task (a task's jobs share it).
    mutating func enqueue(_ job: Job, key: UInt) -> Enqueued {
        switch phase {
        case .ended(let abandoned): return abandoned ? .drop : .forward(job)
        case .exploring, .draining:
            runnable.append(Entry(job: job, task: task(key)))
            return .queued
        }
    }

    /// The job to run next, removed from the list; `idle` when there is none.
    mutating func next() -> Next {
        if case .ended = phase { return .idle }
        return runnable.isEmpty ? .idle : .run(take())
    }

    /// The body returned or threw: drain what is left.
    mutating func bodyFinished() {
        if case .exploring = phase { phase = .draining }
    }

    /// Ends the schedule and returns what was left: to forward, or to drop
    /// when `abandoned`. With `onlyIfIdle`, refuses (nil) while a job can
    /// run: a late enqueue won the race against the driver's verdict.
    mutating func end(abandoned: Bool, onlyIfIdle: Bool) -> [Job]? {
        if onlyIfIdle && !runnable.isEmpty { return nil }
        if case .ended = phase { return [] }
        phase = .ended(abandoned: abandoned)
        let left = runnable.map(\.job)
        runnable = []
        return left
    }

    private mutating func take() -> Job {
        let index = picker.pick(tasks: runnable.map(\.task))
        return runnable.remove(at: index).job
    }

    /// Tasks are numbered in order of first appearance, so the picker sees
    /// the same numbers in every run of a seed, whatever the addresses.
    private mutating func task(_ key: UInt) -> Int {
        if let known = tasks[key] { return known }
        let number = tasks.count
        tasks[key] = number
        return number
    }
}
