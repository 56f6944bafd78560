@testable import ConcurrencyToolkit
import Testing
import TestSupport

/// The scheduler's heap without clocks or threads.
@Suite struct TimeoutHeapTests {
    /// An element that remembers where the heap says it is.
    final class Tracked: TimeoutHeapElement {
        let id: Int
        var index: Int?
        init(_ id: Int) { self.id = id }
        func heapIndexDidChange(to index: Int?) { self.index = index }
    }

    @Test func armsOnlyForAnEarlierDeadline() {
        var heap = TimeoutHeap<Tracked>()
        #expect(heap.insert(Tracked(1), deadline: 100) == .arm(100))
        #expect(heap.insert(Tracked(2), deadline: 200) == .none, "a later deadline must not re-arm the timer")
        #expect(heap.insert(Tracked(3), deadline: 100) == .none)
        #expect(heap.insert(Tracked(4), deadline: 50) == .arm(50))
        #expect(heap.armedDeadline == 50)
    }

    @Test func firingReturnsDueEntriesEarliestFirstAndArmsForTheNext() {
        var heap = TimeoutHeap<Tracked>()
        for (id, deadline) in [(1, 30), (2, 10), (3, 50), (4, 20)] { _ = heap.insert(Tracked(id), deadline: UInt64(deadline)) }
        let (due, next) = heap.timerFired(now: 25)
        #expect(due.map(\.id) == [2, 4])
        #expect(due.allSatisfy { $0.index == nil }, "removed entries are told they left")
        #expect(next == .arm(30))
        let (rest, after) = heap.timerFired(now: 1000)
        #expect(rest.map(\.id) == [1, 3])
        #expect(after == .none)
        #expect(heap.count == 0)
    }

    @Test func earlyFiringReturnsNothingAndReArms() {
        var heap = TimeoutHeap<Tracked>()
        _ = heap.insert(Tracked(1), deadline: 100)
        let (due, next) = heap.timerFired(now: 99)
        #expect(due.isEmpty)
        #expect(next == .arm(100))
    }

    @Test func removingByReportedIndexKeepsTheHeapOrdered() {
        // Random inserts and removals against a sorted reference model.
        var generator = SystemRandomNumberGenerator()
        var heap = TimeoutHeap<Tracked>()
        var live: [Tracked] = []
        var deadlines: [Int: UInt64] = [:]
        for id in 0..<2000 {
            let deadline = UInt64.random(in: 0..<10_000, using: &generator)
            let element = Tracked(id)
            deadlines[id] = deadline
            _ = heap.insert(element, deadline: deadline)
            live.append(element)
            if id % 3 == 0, let victim = live.randomElement(using: &generator), let index = victim.index {
                #expect(heap.entries[index].element === victim, "reported index must point at the element")
                heap.remove(at: index)
                #expect(victim.index == nil)
                live.removeAll { $0 === victim }
            }
        }
        for element in live {
            #expect(heap.entries[element.index!].element === element)
        }
        let (due, _) = heap.timerFired(now: .max)
        #expect(due.map { deadlines[$0.id]! } == live.map { deadlines[$0.id]! }.sorted())
        #expect(Set(due.map(\.id)) == Set(live.map(\.id)))
    }
}
