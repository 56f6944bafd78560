@testable import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Dispatch
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport

/// The trait and the recorder against a real stall: the main actor blocked
/// for 800 ms (long enough for the watchdog to look while it lasts, even on a
/// loaded machine). (It delays this process's other main-actor work by as much;
/// the detector's own end-to-end tests run in child processes.)
@Suite(.serialized, .timingSensitive) struct ConcurrencyStallIsAnIssueTests {
    @Test func aStallDuringTheTestIsRecordedAsAnIssue() async throws {
        let test = try #require(Test.current)
        let named = Lock(false)
        try await withKnownIssue {
            try await ConcurrencyStallIsAnIssue(threshold: .milliseconds(150)).provideScope(for: test, testCase: nil) {
                await MainActor.run { holdTheMainActor(milliseconds: 800) }
            }
        } matching: { issue in
            // Stalls belong to the process: a test running alongside may add
            // its own. Every stall is an issue; ours must be among them.
            guard let stall = issue.error as? ConcurrencyStall else { return false }
            // Reported at the test's declaration, never inside the library.
            #expect(issue.sourceLocation == test.sourceLocation)
            #if os(Linux)
                        if stall.kind == .mainActorBlocked, isRunningUnderThreadSanitizer { named.withLock { $0 = true } }  // no stacks there
            // In this shared process another test may hold the main actor
            // first, and the stall then ends up one long stall whose stack was
            // taken while the other test blocked, or none at all. The names
            // are checked by the detector's own tests, in child processes;
            // here a stall with a stack must name our function.
            if stall.kind == .mainActorBlocked,
               stall.backtrace.isEmpty || stall.backtrace.contains(where: { $0.contains("holdTheMainActor(milliseconds:)") }) {
                named.withLock { $0 = true }
            }
            // The test runner's async main drains the main queue on the
            // pool's threads: while another test blocks the pool, the main
            // actor's stall begins as a wait for a pool thread, seen with no
            // main-actor code running, and is part of the pool's report.
            if stall.kind == .cooperativePoolBlocked, stall.mainActorDelay != nil { named.withLock { $0 = true } }
            #else
            if stall.kind == .mainActorBlocked { named.withLock { $0 = true } }
            #endif
            return true
        }
        #expect(named.withLock { $0 })
    }

    @Test func theRecorderReturnsTheResult() async {
        let (value, _) = await withConcurrencyStallsRecorded(threshold: .seconds(5)) { 42 }
        #expect(value == 42)
        #expect(ConcurrencyStallIsAnIssue().threshold == StallDetector.defaultThreshold)
    }
}

/// Blocks the calling thread (a loop: a capture signal may end a `usleep` early).
@inline(never)
func holdTheMainActor(milliseconds: Int) {
    let end = DispatchTime.now().uptimeNanoseconds + UInt64(milliseconds) * 1_000_000
    while DispatchTime.now().uptimeNanoseconds < end { usleep(5_000) }
}

/// The trait and the XCTest assertion fail a test on its own stalls, not on
/// those a busy host caused.
@Suite struct StallsCausedByTheProgramTests {
    @Test func aStallMostlySpentWaitingForACPUIsTheHosts() {
        func stall(host milliseconds: Int?) -> ConcurrencyStall {
            var stall = ConcurrencyStall(kind: .cooperativePoolBlocked, duration: .milliseconds(400))
            stall.hostDelay = milliseconds.map { .milliseconds($0) }
            return stall
        }
        let stalls = [stall(host: 300), stall(host: 200), stall(host: 100), stall(host: nil)]
        #expect(stalls.causedByTheProgram.map(\.hostDelay) == [.milliseconds(100), nil])
    }
}
