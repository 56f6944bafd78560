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
}
