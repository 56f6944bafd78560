@testable import ConcurrencyToolkit
import Testing

/// A job's cancellation and interrupt actions without threads.
@Suite struct BlockingJobLifecycleTests {
    typealias Lifecycle = BlockingJobLifecycle<String>

    @Test func cancelBeforeStartMeansTheBodyNeverRuns() {
        var life = Lifecycle()
        let actions = life.cancel()
        #expect(actions == .nothing)
        #expect(life.isCancelled)
        let started = life.start()
        #expect(!started)
        #expect(life.phase == .finished)
    }

    @Test func cancelWhileRunningHandsOutEachActionOnce() {
        var life = Lifecycle()
        let started = life.start()
        #expect(started)
        #expect(life.register("close fd") == nil)
        #expect(life.register("interrupt sqlite") == nil)
        #expect(life.cancel() == .interrupt(["close fd", "interrupt sqlite"]))
        let again = life.cancel()
        #expect(again == .nothing)
        #expect(life.isCancelled)
    }

    @Test func actionRegisteredAfterCancellationRunsAtOnce() {
        var life = Lifecycle()
        _ = life.start()
        _ = life.cancel()
        #expect(life.register("close fd") == "close fd")
    }

    @Test func noActionRunsAfterTheBodyFinished() {
        var life = Lifecycle()
        _ = life.start()
        _ = life.register("close fd")
        life.finish()
        let actions = life.cancel()
        #expect(actions == .nothing)
        #expect(life.register("late") == nil)
    }
}
