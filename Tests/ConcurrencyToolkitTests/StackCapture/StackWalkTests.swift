@testable import ConcurrencyToolkit
import Testing
import TestSupport

/// The memory unwinder on made-up stacks: addresses 0x1000–0x1FFF are "the C
/// library", 0x5000–0x5FFF "the program"; a word is a return address when
/// it ends in 0xA (standing in for "just after a call instruction").
@Suite struct StackWalkTests {
    private func isReturnAddress(_ word: UInt) -> Bool {
        (0x1000..<0x6000).contains(word) && word & 0xF == 0xA
    }
    private func isLibrary(_ word: UInt) -> Bool { (0x1000..<0x2000).contains(word) }

    private func walk(_ words: [UInt], stackPointer: UInt = 0x8000, isLastFrame: ((UInt) -> Bool)? = nil) -> [UInt] {
        words.withUnsafeBufferPointer { buffer in
            StackWalk.frames(
                programCounter: 0x1004, stackPointer: stackPointer, words: buffer,
                isInnermostCode: isLibrary, isLastFrame: isLastFrame, isReturnAddress: isReturnAddress)
        }
    }

    /// `poll` (no frame pointer) called by `caller`, whose locals hold a
    /// stale return address; `caller`'s frame record leads to `outer`.
    @Test func scansTheLibraryFramesThenFollowsTheChainPastStaleWords() {
        let stack: [UInt] = [
            0x0,  // 0x8000: poll's locals
            0x112A,  // 0x8008: return into the library's wrapper
            0x0,  // 0x8010
            0x520A,  // 0x8018: return into caller (leaves the library)
            0x530A,  // 0x8020: caller's local: a stale return address
            0x8040,  // 0x8028: caller's frame record: saved frame pointer...
            0x540A,  // 0x8030: ...and the return into outer
            0x0,  // 0x8038
            0x8060,  // 0x8040: outer's record
            0x550A,  // 0x8048: return into outermost
            0x0, 0x0,  // 0x8050
            0x0,  // 0x8060: chain ends
            0x560A,  // 0x8068: return into the thread's entry
        ]
        #expect(walk(stack) == [0x1004, 0x112A, 0x520A, 0x540A, 0x550A, 0x560A])
    }

    /// `nanosleep` saved its caller's frame pointer right below its return
    /// into `usleep`: a pair that looks like a frame record, but following it
    /// would skip the function that called `usleep`. Records are looked for
    /// only above the first return out of the C library.
    @Test func aFramePointerTheLibrarySavedDoesNotSkipTheCaller() {
        let stack: [UInt] = [
            0x0,  // 0x8000: clock_nanosleep's locals
            0x112A,  // 0x8008: return into nanosleep
            0x8040,  // 0x8010: nanosleep pushed the frame pointer (the caller's)...
            0x113A,  // 0x8018: ...below its return into usleep
            0x0,
            0x520A,  // 0x8028: return into the caller
            0x0, 0x0,
            0x8060,  // 0x8040: the caller's record
            0x530A,
            0x0, 0x0,
            0x8080,  // 0x8060: outer's record
            0x540A,
            0x0, 0x0,
            0x0,  // 0x8080: the last
            0x550A,
        ]
        #expect(walk(stack) == [0x1004, 0x112A, 0x113A, 0x520A, 0x530A, 0x540A, 0x550A])
    }

    /// A saved frame pointer that points down, or out of the stack, is no
    /// record; nor is a pair whose next record is not valid.
    @Test func aWordPairThatPointsDownIsNoFrameRecord() {
        let stack: [UInt] = [
            0x520A,  // 0x8000: return into caller
            0x7000,  // 0x8008: points below the stack pointer...
            0x530A,  // 0x8010: ...so this return address after it is no record
            0x8028,  // 0x8018: the real record
            0x540A,
            0x8038,  // 0x8028: the next
            0x550A,
            0x0,  // 0x8038: the last ends the chain
            0x560A,
        ]
        #expect(walk(stack) == [0x1004, 0x520A, 0x540A, 0x550A, 0x560A])
    }

    /// Where the chain ends early, the scan's frames are kept only up to the
    /// job's entry; with no entry found, nothing scanned is kept.
    @Test func afterTheChainEndsTheScanIsKeptOnlyUpToTheLastFrame() {
        let stack: [UInt] = [
            0x520A,  // 0x8000: return into caller
            0x8018,  // 0x8008: caller's record
            0x540A,
            0x8028,  // 0x8018
            0x550A,
            0xDEAD,  // 0x8028: an async frame: the chain ends here
            0x560A,
            0x0,
            0x570A,  // 0x8040: stale, then the job's entry
            0x580A,
        ]
        #expect(walk(stack, isLastFrame: { $0 == 0x580A }) == [0x1004, 0x520A, 0x540A, 0x550A, 0x560A, 0x570A, 0x580A])
        #expect(walk(stack) == [0x1004, 0x520A, 0x540A, 0x550A, 0x560A])
    }

    @Test func anEmptyStackIsTheProgramCounterAlone() {
        #expect(walk([]) == [0x1004])
    }

    // A running thread, stopped by a signal: the frame-pointer register is known.

    private func walkStopped(
        _ words: [UInt], programCounter: UInt = 0x5104, framePointer: UInt,
        callReaches: @escaping (UInt, UInt) -> Bool? = { _, _ in nil }
    ) -> [UInt] {
        words.withUnsafeBufferPointer { buffer in
            StackWalk.frames(
                programCounter: programCounter, stackPointer: 0x8000, framePointer: framePointer, words: buffer,
                isInnermostCode: isLibrary, callReaches: callReaches, isReturnAddress: isReturnAddress)
        }
    }

    /// A busy function that owns its frame (the call before the record's
    /// return address reached it): the chain starts at the register, and a
    /// stale return address in its locals is not a frame, even right above
    /// the stack pointer.
    @Test func aStoppedFunctionWithItsOwnFrameIsFollowedFromTheRegister() {
        let stack: [UInt] = [
            0x0,  // 0x8000: the busy function's locals
            0x530A,  // 0x8008: a stale return address
            0x8020,  // 0x8010: its frame record
            0x540A,  // 0x8018: return into its caller, whose call reached the busy function
            0x8030,  // 0x8020: the caller's record
            0x550A,
            0x0,  // 0x8030: chain ends
            0x560A,
        ]
        let owns: (UInt, UInt) -> Bool? = { returnAddress, _ in returnAddress == 0x540A ? true : nil }
        #expect(walkStopped(stack, framePointer: 0x8010, callReaches: owns) == [0x5104, 0x540A, 0x550A, 0x560A])
        // Were ownership unknown, the word next to the stack pointer would be taken for the function's own return.
        #expect(walkStopped(stack, framePointer: 0x8010) == [0x5104, 0x530A, 0x540A, 0x550A, 0x560A])
    }

    /// Stopped in a leaf that set up no frame (`memset`, say): the register
    /// is still its caller's, whose own frame would be skipped; the leaf's
    /// return address just above the stack pointer is kept when its call
    /// reached the leaf.
    @Test func aLeafsReturnAddressIsKeptWhenItsCallReachedTheLeaf() {
        let stack: [UInt] = [
            0x520A,  // 0x8000: the leaf's return into the busy function
            0x0,  // 0x8008: the busy function's locals
            0x8020,  // 0x8010: the busy function's record
            0x540A,
            0x8030,  // 0x8020
            0x550A,
            0x0,  // 0x8030
            0x0,
        ]
        let stopped = walkStopped(stack, programCounter: 0x1004, framePointer: 0x8010) { returnAddress, callee in
            returnAddress == 0x520A && callee == 0x1004
        }
        #expect(stopped == [0x1004, 0x520A, 0x540A, 0x550A])
        // Its call did not reach the leaf: a stale word, left out.
        #expect(walkStopped(stack, programCounter: 0x1004, framePointer: 0x8010) { _, _ in false } == [0x1004, 0x540A, 0x550A])
        // It cannot tell (a call through a register): kept right at the stack pointer only.
        #expect(walkStopped(stack, programCounter: 0x1004, framePointer: 0x8010) == [0x1004, 0x520A, 0x540A, 0x550A])
    }

    /// Stopped deep in the C library (`_int_malloc` under `malloc` under the
    /// runtime's allocation) called by a Swift function that owns the
    /// record: every return address whose call reached the frame before it
    /// is kept, up to the Swift function's; a stale word between them is not.
    @Test func aChainOfCallsBelowTheRecordIsKeptCallByCall() {
        let stack: [UInt] = [
            0x0,
            0x112A,  // 0x8008: return into malloc (its call reached _int_malloc)
            0x530A,  // 0x8010: a stale word
            0x0,
            0x213A,  // 0x8020: return into the runtime (its call reached malloc)
            0x520A,  // 0x8028: return into the Swift function (its call reached the runtime)
            0x8040,  // 0x8030: the Swift function's record
            0x540A,
            0x8050,  // 0x8040
            0x550A,
            0x0,  // 0x8050
            0x0,
        ]
        let called: [UInt: Range<UInt>] = [0x112A: 0x1000..<0x1100, 0x213A: 0x1100..<0x1200, 0x520A: 0x2100..<0x2200]
        let stopped = walkStopped(stack, programCounter: 0x1004, framePointer: 0x8030) { returnAddress, callee in
            called[returnAddress]?.contains(callee) ?? false
        }
        #expect(stopped == [0x1004, 0x112A, 0x213A, 0x520A, 0x540A, 0x550A])
    }

    /// The register holds no frame record (the C library uses it for data):
    /// the walk scans, as for a sleeping thread.
    @Test func aFramePointerThatIsNoRecordFallsBackToTheScan() {
        let stack: [UInt] = [
            0x0,
            0x112A,  // 0x8008: return into the library
            0x520A,  // 0x8010: return into the caller
            0x0,
            0x8030,  // 0x8020: the caller's record
            0x540A,
            0x8040,  // 0x8030: outer's record
            0x550A,
            0x0,  // 0x8040: chain ends
        ]
        #expect(walkStopped(stack, programCounter: 0x1004, framePointer: 0xDEAD_BEE0) == [0x1004, 0x112A, 0x520A, 0x540A, 0x550A])
    }
}
