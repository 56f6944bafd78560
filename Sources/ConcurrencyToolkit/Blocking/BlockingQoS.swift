import Dispatch

extension DispatchQoS.QoSClass {
    /// The quality of service a lane gets for work submitted at `priority`:
    /// the same ladder Apple platforms use between the two. (On Linux,
    /// libdispatch accepts QoS but the scheduler largely ignores it.)
    init(_ priority: TaskPriority) {
        switch priority.rawValue {
        case TaskPriority.high.rawValue...: self = .userInitiated
        case TaskPriority.medium.rawValue...: self = .default
        case TaskPriority.low.rawValue...: self = .utility
        default: self = .background
        }
    }
}

extension TaskPriority {
    init(_ priority: JobPriority) {
        self.init(rawValue: priority.rawValue)
    }
}
