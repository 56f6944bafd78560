import ConcurrencyToolkit
import Synchronization
import Testing
import TestSupport

/// A handler written in actor-isolated code runs on that actor without an
/// annotation, as `Task { }` does: in a `@MainActor` function,
/// `ThrottledProgress<Int>(interval:) { done in model.itemsDone = done }`
/// compiles and runs on the main actor. Without the inheritance these bodies
/// do not compile ("main actor-isolated property 'itemsDone' can not be
/// mutated from a Sendable closure").
@MainActor
@Suite struct HandlerIsolationTests {
    @MainActor final class Model {
        var itemsDone = 0
        var perKey: [String: Int] = [:]
        var lines: [String] = []
    }

    @Test func throttledProgressHandlerRunsOnTheMainActor() async {
        let model = Model()
        let progress = ThrottledProgress<Int>(interval: .zero) { done in
            MainActor.preconditionIsolated("the handler inherits the main actor")
            model.itemsDone = done
        }
        progress.report(3)
        await progress.finish()
        #expect(model.itemsDone == 3)
    }

    @Test func keyedThrottledProgressHandlerRunsOnTheMainActor() async {
        let model = Model()
        let progress = KeyedThrottledProgress<String, Int>(interval: .zero) { changed in
            MainActor.preconditionIsolated("the handler inherits the main actor")
            model.perKey.merge(changed) { $1 }
        }
        progress.report(1, for: "a")
        progress.report(2, for: "b")
        await progress.finish()
        #expect(model.perKey == ["a": 1, "b": 2])
    }

    @Test func batchingReporterHandlerRunsOnTheMainActor() async {
        let model = Model()
        let log = BatchingReporter<String>(interval: .zero, capacity: 10) { lines in
            MainActor.preconditionIsolated("the handler inherits the main actor")
            model.lines += lines
        }
        log.report("one")
        log.report("two")
        await log.finish()
        #expect(model.lines == ["one", "two"])
    }

    @Test func aHandlerWrittenInAnActorRunsOnThatActor() async {
        let counter = HandlerCounter()
        #expect(await counter.countThroughAHandler(to: 5) == 5)
    }

    @Test func aConcurrentHandlerStaysOffTheMainActor() async {
        let onMainQueue = Mutex<Bool?>(nil)
        let log = BatchingReporter<String>(interval: .zero, capacity: 10) { @concurrent lines in
            onMainQueue.withLock { $0 = isOnMainQueue() }
        }
        log.report("one")
        await log.finish()
        #expect(onMainQueue.withLock { $0 } == false)
    }
}

actor HandlerCounter {
    var value = 0

    func countThroughAHandler(to total: Int) async -> Int {
        let progress = ThrottledProgress<Int>(interval: .zero) { done in
            self.assertIsolated("the handler inherits the actor")
            self.value = done   // synchronous: the handler is isolated to this actor
        }
        progress.report(total)
        await progress.finish()
        return value
    }
}
