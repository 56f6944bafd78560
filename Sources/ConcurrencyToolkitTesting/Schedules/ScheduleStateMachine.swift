/// One schedule's jobs and virtual time as a pure value: events in, actions
/// out. `ScheduleExecutor` holds it under its lock and acts after unlocking.
/// Virtual time moves only when nothing else can run (``advanceTime()``).
struct ScheduleStateMachine<Job, Waker> {
    enum Phase: Equatable {
        case exploring
        /// The body finished; what is left is drained.
        case draining
        /// Later jobs run at once, concurrently, or never when `abandoned` (stuck tasks').
        case ended(abandoned: Bool)
    }

    enum Enqueued {
        case queued
        case forward(Job)
        case drop
    }

    enum Next {
        case run(Job)
        /// Nothing can run now; `sleepers` says whether virtual time can move.
        case idle(sleepers: Bool)
    }

    /// What became of a sleep; all but `asleep` resume the waker at once
    /// (`ended`: to sleep on real time).
    enum Slept {
        case asleep
        case due
        case cancelled
        case ended
    }

    private struct Entry {
        let job: Job
        let task: Int
    }

    private struct Sleeper {
        let deadline: Duration
        let id: Int
        let waker: Waker
    }

    private var runnable: [Entry] = []
    /// In deadline order, ties by arrival (the id).
    private var sleepers: [Sleeper] = []
    /// Sleeps numbered but not yet asleep, and which of those were cancelled.
    private var starting: [Int: Bool] = [:]
    private var sleeps = 0
    private var tasks: [UInt: Int] = [:]
    private var picker: SchedulePicker
    private(set) var phase = Phase.exploring
    /// Virtual time since the schedule started.
    private(set) var now = Duration.zero

    init(strategy: ScheduleStrategy, seed: UInt64) {
        picker = SchedulePicker(strategy: strategy, seed: seed)
    }

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

    /// Numbers a sleep about to start: its place among equal deadlines, and its id before it is asleep.
    mutating func startSleep() -> Int {
        sleeps += 1
        starting[sleeps] = false
        return sleeps
    }

    /// Puts sleep `id` to sleep until `deadline` (virtual time since the start).
    mutating func sleep(_ id: Int, until deadline: Duration, waker: Waker) -> Slept {
        if starting.removeValue(forKey: id) == true { return .cancelled }
        if case .ended = phase { return .ended }
        if deadline <= now { return .due }
        let sleeper = Sleeper(deadline: deadline, id: id, waker: waker)
        let index = sleepers.firstIndex { ($0.deadline, $0.id) > (deadline, id) } ?? sleepers.endIndex
        sleepers.insert(sleeper, at: index)
        return .asleep
    }

    /// The waker to resume with the error, if it sleeps; one not yet asleep is refused later.
    mutating func cancelSleep(_ id: Int) -> Waker? {
        if starting[id] != nil {
            starting[id] = true
            return nil
        }
        guard let index = sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return sleepers.remove(at: index).waker
    }

    /// The job to run next, removed from the list, or why there is none.
    mutating func next() -> Next {
        if case .ended = phase { return .idle(sleepers: false) }
        guard !runnable.isEmpty else { return .idle(sleepers: !sleepers.isEmpty) }
        return .run(take())
    }

    /// Moves virtual time to the earliest deadline; returns the sleepers due, in order.
    mutating func advanceTime() -> [Waker] {
        guard let first = sleepers.first else { return [] }
        now = max(now, first.deadline)
        let due = sleepers.prefix { $0.deadline <= now }
        sleepers.removeFirst(due.count)
        return due.map(\.waker)
    }

    /// The body returned or threw: drain what is left.
    mutating func bodyFinished() {
        if case .exploring = phase { phase = .draining }
    }

    /// Ends the schedule; returns what was left (sleepers with the virtual time
    /// still to sleep). With `onlyIfIdle`, nil while a job can run: a late
    /// enqueue won the race against the driver's verdict.
    mutating func end(
        abandoned: Bool, onlyIfIdle: Bool
    ) -> (jobs: [Job], sleepers: [(waker: Waker, left: Duration)])? {
        if onlyIfIdle && !runnable.isEmpty { return nil }
        if case .ended = phase { return ([], []) }
        phase = .ended(abandoned: abandoned)
        let left = (runnable.map(\.job), sleepers.map { ($0.waker, $0.deadline - now) })
        runnable = []
        sleepers = []
        return left
    }

    private mutating func take() -> Job {
        let index = picker.pick(tasks: runnable.map(\.task))
        return runnable.remove(at: index).job
    }

    /// Numbers in order of first appearance: the same in every run of a seed.
    private mutating func task(_ key: UInt) -> Int {
        if let known = tasks[key] { return known }
        let number = tasks.count
        tasks[key] = number
        return number
    }
}
