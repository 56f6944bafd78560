import Foundation
import Testing
@testable import FileSqueezerCore

/// The run's parallelism (issue 39): how many files were being compressed at
/// once, at most one per core, whatever share of the cores the machine gave.
@Suite("Work overlap")
struct WorkOverlapTests {
    let t0 = ContinuousClock.now

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { t0 + .milliseconds(milliseconds) }

    /// Jobs as (begin, end) in milliseconds from `t0`, fed in time order.
    func parallelism(cores: Int, _ jobs: [(Int, Int)], wall: Int) -> Double {
        var overlap = WorkOverlap(cores: cores, start: t0)
        let events = jobs.flatMap { [($0.0, true), ($0.1, false)] }.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : !$0.1 && $1.1 }
        for (time, begins) in events {
            if begins { overlap.begin(at: at(time)) } else { overlap.end(at: at(time)) }
        }
        return overlap.parallelism(at: at(wall))
    }

    @Test("one file at a time is 1x; two all along is 2x; half the time two is 1.5x")
    func overlaps() {
        #expect(parallelism(cores: 2, [(0, 400), (400, 1000)], wall: 1000) == 1)
        #expect(parallelism(cores: 2, [(0, 1000), (0, 1000)], wall: 1000) == 2)
        #expect(parallelism(cores: 2, [(0, 1000), (500, 1000)], wall: 1000) == 1.5)
        // Time with no file under way (discovery, the end) counts as none.
        #expect(parallelism(cores: 2, [(250, 750), (250, 750)], wall: 1000) == 1)
    }

    @Test("more jobs than cores count one per core: 8 jobs on 2 cores read 2x, not the 8x their times add up to")
    func capped() {
        let eight = Array(repeating: (0, 1000), count: 8)
        #expect(parallelism(cores: 2, eight, wall: 1000) == 2)
        #expect(parallelism(cores: 1, eight, wall: 1000) == 1)
    }

    @Test("an end without a begin, or an instant older than the last, changes nothing it should not")
    func edges() {
        var overlap = WorkOverlap(cores: 2, start: t0)
        overlap.end(at: at(100))
        #expect(overlap.active == 0)
        overlap.begin(at: at(200))
        overlap.begin(at: at(150))  // read before the other, locked after it
        overlap.end(at: at(600))
        overlap.end(at: at(600))
        #expect(overlap.parallelism(at: at(1000)) == 0.8)
        #expect(WorkOverlap(cores: 2, start: t0).parallelism(at: t0) == 0)
    }

    @Test("jobs that get no CPU still overlap: 2 sleeping jobs read about 2x, where CPU time over wall time reads about 0")
    func busyMachine() {
        // What a machine other processes keep busy does to the jobs, to the
        // extreme: they are under way, and the kernel runs something else.
        let start = ContinuousClock.now
        let meter = WorkMeter(cores: 2, start: start)
        let group = DispatchGroup()
        for _ in 0..<2 {
            group.enter()
            Thread.detachNewThread {
                meter.began()
                usleep(300_000)
                meter.ended()
                group.leave()
            }
        }
        group.wait()
        let now = ContinuousClock.now
        let parallelism = meter.parallelism(at: now)
        // The process's CPU time over wall time would read about 0 here, but
        // this test process runs other suites beside it: not asserted.
        #expect(parallelism > 1.3, "parallelism \(parallelism)")
        #expect(parallelism <= 2)
    }
}
