/// Picks which runnable job runs next, from the seed alone: a pure value, so
/// the same seed and the same enqueues give the same picks.
///
/// `tasks` names each runnable job's task by a small number given in order
/// of first appearance, so PCT keeps a task's priority across its jobs.
struct SchedulePicker {
    private let strategy: ScheduleStrategy
    private var random: ScheduleRandom
    private var priorities: [Int: Int] = [:]
    /// PCT: the steps at which the running task drops, with its new priority.
    private var changes: [Int: Int] = [:]
    private var lowest = 0
    private(set) var step = 0

    init(strategy: ScheduleStrategy, seed: UInt64) {
        self.strategy = strategy
        random = ScheduleRandom(seed: seed)
        if case .pct(let depth, let steps) = strategy.kind {
            // Change j lowers a task to priority j, under every first priority (>= depth).
            for j in 0..<(depth - 1) {
                changes[1 + random.below(steps)] = j
            }
            lowest = depth
        }
    }

    /// The index in `tasks` of the job to run now. `tasks` is not empty.
    mutating func pick(tasks: [Int]) -> Int {
        step += 1
        switch strategy.kind {
        case .random:
            return tasks.count == 1 ? 0 : random.below(tasks.count)
        case .pct:
            var best = 0
            var bestPriority = Int.min
            for (index, task) in tasks.enumerated() {
                let priority = priority(of: task)
                if priority > bestPriority { (best, bestPriority) = (index, priority) }
            }
            if let lowered = changes[step] { priorities[tasks[best]] = lowered }
            return best
        }
    }

    private mutating func priority(of task: Int) -> Int {
        if let known = priorities[task] { return known }
        let fresh = lowest + random.below(1 << 30)
        priorities[task] = fresh
        return fresh
    }
}
