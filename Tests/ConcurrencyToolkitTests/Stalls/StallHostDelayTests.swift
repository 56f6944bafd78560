@testable import ConcurrencyToolkit
import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 39: a thread runnable but off a CPU (other processes on the cores)
/// is the host's delay, not the program's stall.
@Suite struct StallHostDelayTests {
    @Test func theRunQueueWaitIsTheSecondSchedstatField() {
        #expect(StallHostDelay.runQueueWait(inSchedstat: "35793 20679407 2\n") == 20_679_407)
        #expect(StallHostDelay.runQueueWait(inSchedstat: "35793") == nil)
        #expect(StallHostDelay.runQueueWait(inSchedstat: "") == nil)
    }

    /// Injected readings: two threads watched over 50 ms, one waiting 40 ms
    /// for a CPU and one 30 ms: 70 % of a 320 ms stall is the host's.
    @Test func theShareIsTheThreadsMeanWaitOverTheWatchedWindow() throws {
        var host = StallHostDelay()
        #expect(host.share == nil)
        host.record(.init(at: 100_000_000, waits: [1: 5_000_000, 2: 0]))
        #expect(host.share == nil)  // one reading says nothing
        host.record(.init(at: 150_000_000, waits: [1: 45_000_000, 2: 30_000_000, 3: 1]))
        let share = try #require(host.share)
        #expect(abs(share - 0.7) < 1e-9)
        #expect(StallHostDelay.delay(share: host.share, of: 320_000_000) == .milliseconds(224))
    }

    @Test func aStallIsTheHostsWhenHalfOfItWaitedForACPU() {
        func isHosts(_ delay: Int, of duration: Int) -> Bool {
            var stall = ConcurrencyStall(kind: .cooperativePoolBlocked, duration: .milliseconds(duration))
            stall.hostDelay = .milliseconds(delay)
            return stall.isCausedByHost
        }
        #expect(isHosts(160, of: 320))
        #expect(isHosts(280, of: 320))
        #expect(!isHosts(159, of: 320))
        var stall = ConcurrencyStall(kind: .cooperativePoolBlocked, duration: .milliseconds(320))
        #expect(!stall.isCausedByHost)  // not measured: the program's
        stall.hostDelay = .milliseconds(280)
        #expect(stall.isCausedByHost)
        #expect(stall.description.contains(
            "; the host: 280 ms of the 320 ms waiting for a CPU (other processes held the cores: not this program's stall)"),
            "\(stall)")
        stall.hostDelay = .milliseconds(100)
        #expect(!stall.isCausedByHost)
        #expect(stall.description.contains("; the host: 100 ms of the 320 ms waiting for a CPU;"), "\(stall)")
    }

    #if os(Linux)
    private typealias AffinityFunction = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32

    /// The real counter: a thread spinning beside another spinner on the same
    /// CPU waits for it about half the time; a thread asleep waits for none.
    @Test func aThreadSharingItsCPUWithAHogWaitsForItAndASleeperDoesNot() throws {
        let set = try #require(dlsym(nil, "sched_setaffinity").map { unsafeBitCast($0, to: AffinityFunction.self) })
        let ids = Locked<[String: UInt64]>([:])
        let go = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        func start(_ name: String, spins: Bool) {
            done.enter()
            Thread {
                defer { done.leave() }
                var mask: UInt64 = 1  // CPU 0 only, both spinners
                if spins { _ = withUnsafeMutableBytes(of: &mask) { set(0, $0.count, $0.baseAddress!) } }
                ids.withLock { $0[name] = CurrentThread.id }
                go.wait()
                let end = ContinuousClock.now + .milliseconds(400)
                if spins { while ContinuousClock.now < end {} } else { blockThread(milliseconds: 400) }
            }.start()
        }
        start("spinner", spins: true)
        start("hog", spins: true)
        start("sleeper", spins: false)
        while ids.withLock({ $0.count }) < 3 { usleep(1_000) }
        let threads = ids.withLock { $0 }
        for _ in 0..<3 { go.signal() }
        usleep(50_000)
        var spinner = StallHostDelay()
        var sleeper = StallHostDelay()
        spinner.record(StallHostDelay.read(threads: [threads["spinner"]!], now: MonotonicClock.now))
        sleeper.record(StallHostDelay.read(threads: [threads["sleeper"]!], now: MonotonicClock.now))
        usleep(250_000)
        spinner.record(StallHostDelay.read(threads: [threads["spinner"]!], now: MonotonicClock.now))
        sleeper.record(StallHostDelay.read(threads: [threads["sleeper"]!], now: MonotonicClock.now))
        done.wait()
        // Alone with the hog it waits half the time; more on a busy machine.
        #expect(try #require(spinner.share) >= 0.3)
        #expect(try #require(sleeper.share) < 0.2)
    }
    #endif
}
