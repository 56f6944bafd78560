@testable import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Testing
import TestSupport

/// A thread asleep in the kernel is captured from memory, never signalled:
/// the blocking call keeps its full length, the stall is reported once,
/// ended, with its whole length, and the report names the call and its
/// caller (issue 27). Each test runs in a child process of its own.
@Suite(.timingSensitive) struct BlockedCallCaptureTests {
    #if os(macOS) || os(Linux)
    #if os(Linux)
    /// Every call of the list blocks the main actor for 600 ms,
    /// one after the other, with the detector at 100 ms.
    @Test func callsBlockingTheMainActorKeepTheirLengthAndAreReportedOnce() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                for call in BlockingCall.allCases {
                    let (outcome, stalls) = await withConcurrencyStallsRecorded(threshold: .milliseconds(100)) {
                        await MainActor.run { callThatBlocks(call, milliseconds: 600) }
                    }
                    writeToStandardError(outcome.line)
                    writeStallLines(stalls.filter { $0.kind == .mainActorBlocked })
                    writeToStandardError("END\n")
                }
            })
        try checkEachCall(result.standardErrorContent, calls: BlockingCall.allCases, kind: "mainActorBlocked")
    }

    static let poolCalls: [BlockingCall] = [.poll, .pipeRead, .condTimedwait, .semTimedwait]

    /// The same calls on every pool thread at once.
    @Test func callsBlockingEveryPoolThreadKeepTheirLengthAndAreReportedOnce() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                for call in Self.poolCalls {
                    let (outcomes, stalls) = await withConcurrencyStallsRecorded(threshold: .milliseconds(100)) {
                        await withTaskGroup(of: BlockingCallOutcome.self) { group in
                            for _ in 0..<activeProcessorCount { group.addTask { callThatBlocks(call, milliseconds: 600) } }
                            var outcomes: [BlockingCallOutcome] = []
                            for await outcome in group { outcomes.append(outcome) }
                            return outcomes
                        }
                    }
                    // Every thread's call must keep its length: write the worst.
                    let worst = outcomes.first { !$0.keptItsLength(600) } ?? outcomes.first
                    writeToStandardError(worst?.line ?? "CALL\t0\t0\t0\n")
                    writeStallLines(stalls)
                    writeToStandardError("END\n")
                }
            })
        // On Linux each priority has its threads: under load a blocked pool can
        // stall at two priorities. So: at least one report, all ended, the
        // longest whole; the calls' lengths are checked as everywhere. (A
        // thread Dispatch starts mid-block no longer splits one stall in two:
        // a pool stall ends at a probe that runs promptly.)
        try checkEachCall(result.standardErrorContent, calls: Self.poolCalls, kind: "cooperativePoolBlocked", exactlyOne: false)
    }

    /// A block right after `start()`, with no suspension between, is seen:
    /// `start()` on the main actor arms the main probe.
    @Test func aBlockRightAfterStartIsDetected() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                let stalls = Collected<ConcurrencyStall>()
                ConcurrencyStallHandler.bootstrap(.custom { stall in stalls.append(stall) })
                let outcome = await MainActor.run {
                    StallDetector.start(threshold: .milliseconds(100))
                    return callThatBlocks(.poll, milliseconds: 600)
                }
                _ = await eventually(within: .seconds(30)) { !stalls.values.isEmpty }
                writeToStandardError(outcome.line)
                writeStallLines(stalls.values)
                writeToStandardError("END\n")
            })
        try checkEachCall(result.standardErrorContent, calls: [.poll], kind: "mainActorBlocked")
    }
    #endif
    #endif
}

#if os(Linux)
/// Reads the child's `CALL`, `STALL` and `END` lines: per call, the call
/// kept its length, and exactly one ended stall of `kind` of at least 0.9
/// of it was reported (or, unless `exactlyOne`, at least one, all ended),
/// naming the call (`blocked in read`) and `callThatBlocks`.
private func checkEachCall(_ standardError: [UInt8], calls: [BlockingCall], kind: String, exactlyOne: Bool = true) throws {
    let text = String(decoding: standardError, as: UTF8.self)
    let blocks = text.components(separatedBy: "END\n").dropLast()
    try #require(blocks.count == calls.count, "\(text)")
    for (call, block) in zip(calls, blocks) {
        let bytes = Array(block.utf8)
        let outcome = try #require(BlockingCallOutcome.parse(bytes).first, "\(block)")
        #expect(outcome.keptItsLength(600), "cut short: \(block)")
        let stalls = RecordedStall.parse(bytes).filter { $0.kind == kind }
        #expect(exactlyOne ? stalls.count == 1 : !stalls.isEmpty, "\(block)")
        #expect(stalls.allSatisfy { !$0.isOngoing }, "\(block)")
        guard let stall = stalls.max(by: { $0.milliseconds < $1.milliseconds }) else { continue }
        // The longest report covers the block (at least 0.9 of it).
        #expect(stall.milliseconds >= 540, "\(block)")
        // ThreadSanitizer's interceptors stand between the caller and the C
        // library: there the call keeps its length, the frames are not checked.
        guard !isRunningUnderThreadSanitizer else { continue }
        #expect(stall.frames.first?.hasPrefix("blocked in \(call.functionName) (") == true, "\(block)")
        #expect(stall.frames.contains { $0.contains("callThatBlocks(_:milliseconds:)") }, "\(block)")
    }
}
#endif
