import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Testing
import TestSupport

/// Properties of the toolkit itself, held under every explored schedule.
/// `.timingSensitive`: the reporters deliver from a task of their own on the real pool,
/// and a suite that blocks the pool for seconds would make that look like a deadlock.
/// Such a schedule is the exploration's known limit (a saturated pool looks like a
/// deadlock: the guide's "Limits"), not a broken property: what these tests check is
/// that no schedule *completes* with the order or the final value wrong.
@Suite(.timingSensitive) struct ToolkitUnderSchedulesTests {
    struct OutOfOrder: Error, CustomStringConvertible {
        let delivered: [String]
        var description: String { "delivered out of order or incomplete: \(delivered)" }
    }

    @Test func batchingReporterKeepsEachProducersOrder() async {
        let exploration = await exploreSchedules(100) {
            let delivered = Collected<String>()
            let log = BatchingReporter<String>(interval: .zero, capacity: 100) { batch in
                for line in batch { delivered.append(line) }
            }
            await withTaskGroup(of: Void.self) { group in
                for producer in ["a", "b", "c"] {
                    group.addTask {
                        for n in 1...4 {
                            log.report("\(producer)\(n)")
                            await Task.yield()
                        }
                    }
                }
            }
            await log.finish()
            let lines = delivered.values
            for producer in ["a", "b", "c"] where lines.filter({ $0.hasPrefix(producer) }) != (1...4).map({ "\(producer)\($0)" }) {
                throw OutOfOrder(delivered: lines)
            }
        }
        #expect(exploration.schedulesRun == 100)
        #expect(exploration.failures.filter { !$0.isDeadlock }.isEmpty, "\(exploration)")
    }

    @Test func throttledProgressAlwaysDeliversTheFinalValue() async {
        let exploration = await exploreSchedules(100) {
            let seen = Collected<Int>()
            let progress = ThrottledProgress<Int>(interval: .milliseconds(50)) { seen.append($0) }
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<2 {
                    group.addTask {
                        for n in 1...3 {
                            progress.report(worker * 10 + n)
                            await Task.yield()
                        }
                    }
                }
            }
            progress.report(99)
            await progress.finish()
            if seen.values.last != 99 { throw OutOfOrder(delivered: seen.values.map(String.init)) }
        }
        #expect(exploration.schedulesRun == 100)
        #expect(exploration.failures.filter { !$0.isDeadlock }.isEmpty, "\(exploration)")
    }
}
