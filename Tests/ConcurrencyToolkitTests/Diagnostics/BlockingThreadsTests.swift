@testable import ConcurrencyToolkit
import Synchronization
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The registry the stall detector asks before it signals a thread: a thread
/// counts as running blocking work exactly while it is inside `running`,
/// nested bursts included, and a thread that exits leaves no entry behind.
@Suite struct BlockingThreadsTests {
    @Test func aThreadRunsBlockingWorkExactlyWhileInsideABurst() {
        let id = CurrentThread.id
        #expect(!BlockingThreads.isRunning(id))
        BlockingThreads.running {
            #expect(BlockingThreads.isRunning(id))
            BlockingThreads.running { #expect(BlockingThreads.isRunning(id)) }
            // The inner burst ended, the outer one has not.
            #expect(BlockingThreads.isRunning(id))
        }
        #expect(!BlockingThreads.isRunning(id))
    }

    #if os(Linux)
    @Test func anotherThreadsBurstIsSeenFromHere() {
        let inside = Atomic<UInt64>(0)
        let release = Atomic<Bool>(false)
        let thread = RawThread {
            BlockingThreads.running {
                inside.store(CurrentThread.id, ordering: .sequentiallyConsistent)
                while !release.load(ordering: .sequentiallyConsistent) { usleep(1_000) }
            }
        }
        while inside.load(ordering: .sequentiallyConsistent) == 0 { usleep(1_000) }
        let id = inside.load(ordering: .sequentiallyConsistent)
        #expect(BlockingThreads.isRunning(id))
        release.store(true, ordering: .sequentiallyConsistent)
        thread.join()
        #expect(!BlockingThreads.isRunning(id))
    }

    @Test func threadsThatExitLeaveTheRegistry() {
        let before = BlockingThreads.registeredCount
        for _ in 0..<50 {
            let thread = RawThread { BlockingThreads.running {} }
            thread.join()
        }
        // Other suites' lanes may register meanwhile; fifty exited threads may not.
        #expect(BlockingThreads.registeredCount < before + 25)
    }
    #endif
}
