import Dispatch
import Foundation
import Synchronization

/// A fixed set of parked threads that run one closure together on demand, so
/// "from 4 threads" benchmarks measure contention on the reporter, not the
/// cost of starting threads (which would dwarf a 20 ns call).
///
/// The threads live as long as the benchmark process: a gang is created once
/// per benchmark and never torn down, which is harmless in a process that
/// exits when the run ends.
final class ThreadGang: Sendable {
    let count: Int
    private let work = Mutex<(@Sendable (_ thread: Int) -> Void)?>(nil)
    private let start: [DispatchSemaphore]
    private let done = DispatchSemaphore(value: 0)

    init(count: Int) {
        self.count = count
        start = (0..<count).map { _ in DispatchSemaphore(value: 0) }
        for index in 0..<count {
            let thread = Thread { [self] in
                while true {
                    start[index].wait()
                    let body = work.withLock { $0 }!
                    body(index)
                    done.signal()
                }
            }
            thread.name = "gang-\(index)"
            thread.start()
        }
    }

    /// Runs `body(threadIndex)` on every thread of the gang at once and
    /// returns when all of them returned. Blocks the caller.
    func run(_ body: @escaping @Sendable (_ thread: Int) -> Void) {
        work.withLock { $0 = body }
        for semaphore in start { semaphore.signal() }
        for _ in 0..<count { done.wait() }
    }
}
