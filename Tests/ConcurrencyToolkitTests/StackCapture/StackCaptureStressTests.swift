import TestSupport
#if os(Linux) && canImport(Glibc)
@testable import ConcurrencyToolkit
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import Testing

/// The signal handler is async-signal-safe: thousands of captures of
/// threads that allocate and take locks without pause never deadlock, never
/// time out, never crash (the handler used to unwind with glibc's
/// `backtrace()`, which crashed about 1 run in 12 under AddressSanitizer),
/// and every capture has frames. (Also run under ThreadSanitizer and
/// AddressSanitizer, see Documentation/StallDetection.md.) Its two threads
/// load both cores, so it takes the timing gate: no timing-sensitive suite
/// runs beside it.
@Suite(.timingSensitive, .longRun) struct StackCaptureStressTests {
    final class Flags: Sendable {
        let stop = Atomic<Bool>(false)
        let rounds = Atomic<Int>(0)
    }

    @Test func thousandsOfCapturesOfAllocatingAndLockingThreads() async throws {
        try #require(ThreadStackCapture.prepare(signal: SIGPROF))
        let flags = Flags()
        let ids = Collected<UInt64>()
        let shared = Lock<[Int: [UInt8]]>([:])
        // Two threads of their own (serial queues), so the pool stays free for the test.
        let finished = DispatchGroup()
        for worker in 0..<2 {
            DispatchQueue(label: "stress-\(worker)").async(group: finished) {
                ids.append(CurrentThread.id)
                var round = 0
                while !flags.stop.load(ordering: .relaxed) {
                    let bytes = [UInt8](repeating: UInt8(truncatingIfNeeded: round), count: 64 + round % 4096)
                    shared.withLock { $0[(worker * 1000) + round % 512] = bytes }
                    let text = "\(round) \(bytes.count)"  // more allocation
                    if text.isEmpty { break }
                    round += 1
                    flags.rounds.add(1, ordering: .relaxed)
                }
            }
        }
        while ids.count < 2 { try await Task.sleep(for: .milliseconds(1)) }
        let targets = ids.values
        let regions = MemoryRegions.current()  // as a stall reads it: once, for every capture
        var captures = 0, failures = 0, empty = 0, unwound = 0
        for index in 0..<3_000 {
            let target = Int32(truncatingIfNeeded: targets[index % targets.count])
            guard let capture = ThreadStackCapture.capture(thread: target, timeout: 2_000_000_000, regions: regions) else {
                failures += 1
                continue
            }
            captures += 1
            if capture.addresses.isEmpty { empty += 1 }
            if capture.addresses.count >= 3 { unwound += 1 }  // the stopped code and at least two callers
        }
        let before = flags.rounds.load(ordering: .relaxed)
        try await Task.sleep(for: .milliseconds(20))
        let progressed = flags.rounds.load(ordering: .relaxed) > before  // the targets still run: no deadlock
        flags.stop.store(true, ordering: .relaxed)
        finished.wait()
        #expect(failures == 0)
        #expect(captures == 3_000)
        #expect(empty == 0)
        // The walk got past the stopped instruction: most captures have callers
        // (some stop where the C library uses the frame-pointer register for data).
        #expect(unwound * 2 >= captures, "\(unwound) of \(captures) captures have two callers or more")
        #expect(progressed)
    }
}
#endif
