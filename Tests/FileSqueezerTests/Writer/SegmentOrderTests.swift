import Testing
@testable import FileSqueezerCore
import TestSupport

/// The two pieces that keep parallel compression's memory bounded, driven
/// directly: the per-file reorder buffer and the run's segment window.
@Suite("Segment order and memory bound")
struct SegmentOrderTests {
    /// Plays the drainer protocol: whoever `insert` elects drains until `nil`.
    func deliver(_ order: inout SegmentReorderBuffer<Int>, _ index: Int, into written: inout [Int]) {
        guard order.insert(index, index * 10) else { return }
        while let run = order.takeReady() {
            written += run.map(\.element)
        }
    }

    @Test("results inserted in any order come out once each, in order")
    func reorders() {
        var generator = FileSqueezerCore.SplitMix64(seed: 42)
        for count in [1, 2, 3, 17, 64] {
            var indices = Array(0..<count)
            for position in indices.indices.reversed() {
                indices.swapAt(position, Int(generator.next() % UInt64(position + 1)))
            }
            var order = SegmentReorderBuffer<Int>(count: count)
            var written: [Int] = []
            for index in indices { deliver(&order, index, into: &written) }
            #expect(written == (0..<count).map { $0 * 10 }, "permutation \(indices)")
            #expect(order.isComplete)
            #expect(order.waitingCount == 0)
        }
    }

    @Test("only results ahead of a missing one wait; the peak is what finished ahead")
    func holdsOnlyWhatFinishedAhead() {
        var order = SegmentReorderBuffer<Int>(count: 6)
        var written: [Int] = []
        for index in [1, 2, 3] { deliver(&order, index, into: &written) }
        #expect(written.isEmpty)
        #expect(order.waitingCount == 3)
        deliver(&order, 0, into: &written)
        #expect(written == [0, 10, 20, 30])
        #expect(order.waitingCount == 0)
        deliver(&order, 4, into: &written)
        deliver(&order, 5, into: &written)
        #expect(written == [0, 10, 20, 30, 40, 50])
        #expect(order.peakWaiting == 4)
    }

    @Test("one drainer at a time: an insert during a drain is left to that drainer")
    func oneDrainer() {
        var order = SegmentReorderBuffer<Int>(count: 3)
        let electedFirst = order.insert(0, 0)
        #expect(electedFirst)
        #expect(order.takeReady()?.map(\.index) == [0])  // writing 0, outside the lock...
        let electedDuringDrain = order.insert(1, 1)
        #expect(!electedDuringDrain)                     // ...so this caller just leaves it
        #expect(order.takeReady()?.map(\.index) == [1])  // the drainer picks it up
        #expect(order.takeReady() == nil)                // turn over
        let electedAgain = order.insert(2, 2)
        #expect(electedAgain)                            // the next insert is elected again
        #expect(order.takeReady()?.map(\.index) == [2])
        #expect(order.isComplete)
    }

    @Test("the window admits `limit` segments, then one more per release of the oldest")
    func windowAdmits() async throws {
        let window = SegmentWindow(limit: 3)
        for index in 0..<3 { try await window.enter(index) }
        #expect(window.peakOutstanding == 3)
        let fourth = Task { try await window.enter(3) }
        // Releasing a later segment moves nothing: segment 0 is still the oldest.
        window.release(2)
        window.release(1)
        try await Task.sleep(for: .milliseconds(50))
        #expect(window.waits == 1)
        window.release(0)
        try await fourth.value                           // now 3 < lowWater (3) + limit
        try await window.enter(4)                        // 1 and 2 were released too
        try await window.enter(5)
        #expect(window.peakOutstanding == 3)
    }

    @Test("a segment cancelled while it waits throws at once, and releasing it unblocks the rest")
    func windowCancellation() async throws {
        let window = SegmentWindow(limit: 1)
        try await window.enter(0)
        let waiting = Task { try await window.enter(1) }
        try await Task.sleep(for: .milliseconds(20))
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        window.release(0)
        window.release(1)                                // dropped, as the scheduler does
        try await window.enter(2)
    }

    @Test("cancelled after its continuation is armed but before it is registered, a wait leaves no stale waiter")
    func windowCancellationBeforeRegistering() async throws {
        // The hook lands the cancellation exactly in that gap: the task
        // cancels itself from inside enter's continuation body.
        let window = SegmentWindow(limit: 1, beforeRegistering: {
            withUnsafeCurrentTask { $0?.cancel() }
        })
        try await window.enter(0)
        let waiting = Task { try await window.enter(1) }
        await #expect(throws: CancellationError.self) { try await waiting.value }
        #expect(window.waiting == 0, "the cancelled wait registered a waiter anyway")
        window.release(0)                                // a stale waiter would be resumed a second time here
        window.release(1)                                // dropped, as the scheduler does
        #expect(window.tryEnter(2))
        #expect(window.peakOutstanding == 1)
    }

    @Test("many segments finishing in random order never exceed the window", arguments: [1, 2, 4])
    func windowBoundUnderLoad(limit: Int) async throws {
        let window = SegmentWindow(limit: limit)
        let count = 300
        let order = Locked(SegmentReorderBuffer<Int>(count: count))
        await Array(0..<count).concurrentForEachForTests(maxConcurrency: 4) { index in
            try? await window.enter(index)
            // Unequal work, so segments finish out of order.
            var generator = FileSqueezerCore.SplitMix64(seed: UInt64(index))
            if generator.next() % 3 == 0 { try? await Task.sleep(for: .microseconds(200)) }
            var elected = order.withLock { $0.insert(index, index) }
            while elected {
                if let run = order.withLock({ $0.takeReady() }) {
                    for (released, _) in run { window.release(released) }
                } else {
                    elected = false
                }
            }
        }
        #expect(order.withLock { $0.isComplete })
        #expect(window.peakOutstanding <= limit)
        #expect(order.withLock { $0.peakWaiting } <= limit)
    }
}

extension Array where Element: Sendable {
    /// `jobs` tasks pulling indices from a shared counter: enough concurrency
    /// for the window test without depending on the scheduler under test.
    func concurrentForEachForTests(maxConcurrency: Int, _ body: @escaping @Sendable (Element) async -> Void) async {
        let next = Locked(0)
        let elements = self
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<maxConcurrency {
                group.addTask {
                    while true {
                        let index = next.withLock { value in
                            defer { value += 1 }
                            return value
                        }
                        guard index < elements.count else { return }
                        await body(elements[index])
                    }
                }
            }
        }
    }
}
