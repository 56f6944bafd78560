/// One schedule's jobs and virtual time, as a pure value: events in, what to
/// do out; no lock, no thread. `ScheduleExecutor` holds it under its lock and
/// does what it says after unlocking.
///
/// Jobs wait in enqueue order; the picker chooses among them. A sleeping job
/// waits on virtual time, which moves only when nothing else can run
/// (``advanceTime()``), to the earliest deadline: a 60 s sleep costs a step.
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
        /// Nothing can run now; `sleepers` says whether virtual time can move.
        case idle(sleepers: Bool)
    }

    private struct Entry {
        let job: Job
        let task: Int
    }

    private struct Sleeper {
        let deadline: Duration
        let order: Int
        let entry: Entry
    }

    private var runnable: [Entry] = []
    private var sleepers: [Sleeper] = []
    private var sleeps = 0
    private var tasks: [UInt: Int] = [:]
    private var picker: SchedulePicker
    private(set) var phase = Phase.exploring
    /// Virtual time since the schedule started.
    private(set) var now = Duration.zero

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

    /// A job that runs `delay` from now, on virtual time. Over, the schedule
    /// hands it back to be run after `delay` of real time.
    mutating func enqueue(_ job: Job, key: UInt, after delay: Duration) -> Enqueued {
        switch phase {
        case .ended(let abandoned): return abandoned ? .drop : .forward(job)
        case .exploring, .draining:
            sleeps += 1
            let sleeper = Sleeper(deadline: now + max(delay, .zero), order: sleeps, entry: Entry(job: job, task: task(key)))
            let index = sleepers.firstIndex { ($0.deadline, $0.order) > (sleeper.deadline, sleeper.order) } ?? sleepers.endIndex
            sleepers.insert(sleeper, at: index)
            return .queued
        }
    }

    /// The job to run next, removed from the list, or why there is none.
    mutating func next() -> Next {
        if case .ended = phase { return .idle(sleepers: false) }
        guard !runnable.isEmpty else { return .idle(sleepers: !sleepers.isEmpty) }
        return .run(take())
    }

    /// Moves virtual time to the earliest deadline and makes every sleeper
    /// due then runnable, in deadline order. False when no one sleeps.
    mutating func advanceTime() -> Bool {
        guard let first = sleepers.first else { return false }
        now = max(now, first.deadline)
        while let due = sleepers.first, due.deadline <= now {
            runnable.append(due.entry)
            sleepers.removeFirst()
        }
        return true
    }

    /// The body returned or threw: drain what is left.
    mutating func bodyFinished() {
        if case .exploring = phase { phase = .draining }
    }

    /// Ends the schedule and returns what was left: to forward, or to drop
    /// when `abandoned`. With `onlyIfIdle`, refuses (nil) while a job can
    /// run: a late enqueue won the race against the driver's verdict.
    mutating func end(abandoned: Bool, onlyIfIdle: Bool) -> (jobs: [Job], sleepers: [(job: Job, delay: Duration)])? {
        if onlyIfIdle && !runnable.isEmpty { return nil }
        if case .ended = phase { return ([], []) }
        phase = .ended(abandoned: abandoned)
        let left = (runnable.map(\.job), sleepers.map { ($0.entry.job, $0.deadline - now) })
        runnable = []
        sleepers = []
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
