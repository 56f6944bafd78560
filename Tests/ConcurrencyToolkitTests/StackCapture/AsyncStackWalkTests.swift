@testable import ConcurrencyToolkit
import Testing

/// The walk of the caller's own stack, on made-up memory: frame records up
/// to the return into the concurrency runtime, then the task's contexts.
@Suite struct AsyncStackWalkTests {
    /// Code lies in 0x1000..<0x9000; the runtime's image is 0x8000..<0x9000.
    static func isCode(_ address: UInt) -> Bool { (0x1000..<0x9000).contains(address) }
    static func isRuntime(_ address: UInt) -> Bool { (0x8000..<0x9000).contains(address) }

    struct Memory {
        var stack: [UInt: UInt] = [:]
        var contexts: [UInt: (UInt, UInt)] = [:]
        func read(_ address: UInt) -> UInt? { stack[address] }
        func context(_ address: UInt) -> (parent: UInt, resume: UInt)? { contexts[address].map { ($0.0, $0.1) } }
    }

    func walk(_ memory: Memory, from record: UInt, limit: Int = 16) -> [UInt] {
        AsyncStackWalk.frames(
            framePointer: record, limit: limit, read: memory.read, readContext: memory.context,
            isCode: Self.isCode, isConcurrencyRuntime: Self.isRuntime)
    }

    /// Two synchronous frames, the job's resumed function (whose context is
    /// just below its record), then two async callers and the task's end.
    static let task: Memory = {
        var memory = Memory()
        memory.stack = [
            0x7000_0100: 0x7000_0140, 0x7000_0108: 0x1111,  // our frame: returns into 0x1111
            0x7000_0140: 0x7000_0180, 0x7000_0148: 0x2222,  // returns into 0x2222 (the resumed partial)
            0x7000_0178: 0x5000_0000,  // the resumed function's context
            0x7000_0180: 0x7000_0200, 0x7000_0188: 0x8123,  // returns into the runtime
        ]
        memory.contexts = [
            0x5000_0000: (0x5000_0100, 0x3000),  // resumes its caller at 0x3000
            0x5000_0100: (0x5000_0200, 0x4000),
            0x5000_0200: (0, 0x8500),  // the task's end, in the runtime
        ]
        return memory
    }()

    @Test func synchronousFramesThenTheAsyncCallersPlusOne() {
        #expect(walk(Self.task, from: 0x7000_0100) == [0x1111, 0x2222, 0x3001, 0x4001, 0x8501])
    }

    @Test func stopsAtTheLimit() {
        #expect(walk(Self.task, from: 0x7000_0100, limit: 3) == [0x1111, 0x2222, 0x3001])
    }

    @Test func aChainThatGoesDownOrLeavesTheStackEnds() {
        var memory = Self.task
        memory.stack[0x7000_0140] = 0x7000_0100  // points back down
        #expect(walk(memory, from: 0x7000_0100) == [0x1111, 0x2222])
        memory.stack[0x7000_0140] = 0x7000_0180
        memory.stack[0x7000_0148] = 0xdead_0000  // not code
        #expect(walk(memory, from: 0x7000_0100) == [0x1111])
    }

    @Test func aContextThatIsNotOneEndsTheAsyncPart() {
        var memory = Self.task
        memory.contexts[0x5000_0100] = (0x5000_0200, 0xdead_0000)  // its resume is not code
        #expect(walk(memory, from: 0x7000_0100) == [0x1111, 0x2222, 0x3001])
        memory.stack[0x7000_0178] = 0x5000_0008  // misaligned
        #expect(walk(memory, from: 0x7000_0100) == [0x1111, 0x2222])
    }

    @Test func theFirstRecordIsFoundAboveTheLocals() {
        var memory = Self.task
        memory.stack[0x7000_00e0] = 0x42  // a local
        memory.stack[0x7000_00e8] = 0x7000_0100  // a pointer up, but no return address after it
        memory.stack[0x7000_00f0] = 0x1
        memory.stack[0x7000_00f8] = 0x2
        let record = AsyncStackWalk.firstRecord(above: 0x7000_00e0, read: memory.read, isCode: Self.isCode)
        #expect(record == 0x7000_0100)
    }

    @Test func theCallersOwnStackIsWalkedIntoTheRuntime() async {
        #if os(Linux)
        await Task.yield()
        let frames = CurrentStack.capture(limit: 64)
        let code = CodeMap.shared.snapshot
        #expect(frames.count >= 3, "\(frames)")
        #expect(frames.allSatisfy { code.isCode($0 &- 1) }, "every frame is in loaded code: \(frames)")
        // The task's last context resumes in the runtime, which completes it.
        #expect(frames.contains { code.isConcurrencyRuntime($0 &- 1) }, "\(frames)")
        #endif
    }
}
