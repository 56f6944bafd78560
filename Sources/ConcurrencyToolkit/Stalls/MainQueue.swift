import Dispatch

/// Whether the calling code runs on the main queue: the main actor's
/// executor on every platform (the main thread under a run loop, or the
/// worker thread an async `main` hands the queue to after `dispatch_main()`).
///
/// ```swift
/// if MainQueue.isCurrent { StallMonitor.shared.watchdog?.armMainProbe() }
/// ```
enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}
