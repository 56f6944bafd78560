@testable import ConcurrencyToolkit
import Testing
import TestSupport

/// The demand-driven worker's life: started by the first demand, set to the
/// smallest, stopped when the last goes; no lock taken inside another.
@Suite struct DemandsTests {
    final class FakeWorker: DemandDrivenWorker {
        let configuration: Lock<Versioned<Int>>
        let events = Collected<String>()

        init(configuration: Int) { self.configuration = Lock(Versioned(configuration)) }
        func start() { events.append("start \(configuration.withLock { $0.value })") }
        func stop() { events.append("stop") }
        func poke() { events.append("poke \(configuration.withLock { $0.value })") }
    }

    static func makeDemands(made: Collected<FakeWorker>) -> Demands<Int, FakeWorker> {
        Demands(
            configure: { process, all in all.min().map { $0 * 10 + (process == nil ? 0 : 1) } },
            makeWorker: { configuration in
                let worker = FakeWorker(configuration: configuration)
                made.append(worker)
                return worker
            })
    }

    @Test func theFirstDemandStartsTheSmallestConfiguresTheLastStops() throws {
        let made = Collected<FakeWorker>()
        let demands = Self.makeDemands(made: made)
        #expect(demands.worker == nil)
        let first = demands.add(5)
        let worker = try #require(demands.worker)
        let second = demands.add(3)
        let third = demands.add(4)  // not smaller: nothing changes
        demands.setProcessDemand(9)  // the process's demand is known to the configuration
        demands.remove(second)
        demands.remove(first)
        #expect(demands.workerAndProcessDemand.process == 9)
        demands.setProcessDemand(nil)
        #expect(demands.worker === worker)  // the scoped 4 is still there
        demands.remove(third)
        #expect(demands.worker == nil)
        #expect(made.values.count == 1)
        #expect(worker.events.values == ["start 50", "poke 30", "poke 31", "poke 41", "poke 40", "stop"])
    }

    @Test func aStoppedWorkerIsReplacedByANewOneOnTheNextDemand() throws {
        let made = Collected<FakeWorker>()
        let demands = Self.makeDemands(made: made)
        demands.setProcessDemand(2)
        demands.setProcessDemand(nil)
        demands.setProcessDemand(7)
        #expect(made.values.map { $0.events.values } == [["start 21", "stop"], ["start 71"]])
    }

    /// Two changes racing to the worker: the later (5) sets the value it
    /// already has, then the earlier (4) arrives. The later one's value stays.
    @Test func anEarlierChangeArrivingLateDoesNotUndoALaterOne() {
        let worker = FakeWorker(configuration: 10)
        #expect(Demands<Int, FakeWorker>.apply(10, generation: 5, to: worker) == false)
        #expect(Demands<Int, FakeWorker>.apply(30, generation: 4, to: worker) == false)
        #expect(worker.configuration.withLock { $0.value } == 10)
        #expect(Demands<Int, FakeWorker>.apply(30, generation: 6, to: worker) == true)
        #expect(worker.configuration.withLock { $0.value } == 30)
    }

    /// The worker is started, poked and stopped after the demands' lock is
    /// released: a worker that asks the demands from those calls would
    /// deadlock otherwise.
    @Test func theWorkerIsCalledOutsideTheLock() {
        let made = Collected<ReentrantWorker>()
        let holder = Collected<Demands<Int, ReentrantWorker>>()
        let demands = Demands<Int, ReentrantWorker>(
            configure: { _, all in all.min() },
            makeWorker: { configuration in
                let worker = ReentrantWorker(configuration: configuration, demands: holder)
                made.append(worker)
                return worker
            })
        holder.append(demands)
        let first = demands.add(5)
        let second = demands.add(3)
        demands.remove(second)
        demands.remove(first)
        #expect(made.values.first?.sawItself.values == [true, true, true, false])
    }

    final class ReentrantWorker: DemandDrivenWorker {
        let configuration: Lock<Versioned<Int>>
        let demands: Collected<Demands<Int, ReentrantWorker>>
        /// For each call, whether the demands' worker was this one (read through the demands' lock).
        let sawItself = Collected<Bool>()

        init(configuration: Int, demands: Collected<Demands<Int, ReentrantWorker>>) {
            self.configuration = Lock(Versioned(configuration))
            self.demands = demands
        }
        private func look() { sawItself.append(demands.values.first?.worker === self) }
        func start() { look() }
        func poke() { look() }
        func stop() { look() }
    }
}
