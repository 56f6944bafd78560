#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
/// Takes the stack of a thread asleep in the kernel without touching the
/// thread: no signal, no stop. While it sleeps its user stack cannot change,
/// so the words above the stack pointer that `/proc/self/task/TID/syscall`
/// gives are read through `/proc/self/mem` (a read of an unmapped address
/// fails instead of crashing) and unwound by ``StackWalk``. Reading the
/// syscall file again afterwards says whether the thread slept throughout:
/// if it did not, the capture is thrown away.
///
/// ```swift
/// let id: UInt64 = 4242   // a thread of this process, as /proc/self/task lists it
/// let regions = MemoryRegions.current()
/// if case .blocked(let call) = ThreadStatus.of(thread: id),
///     let frames = BlockedStackCapture.capture(thread: id, call: call, regions: regions) {
///     print(frames)   // the program counter in the C library, then return addresses
/// }
/// ```
enum BlockedStackCapture {
    /// How much of a stack is read, at most (the rest is not unwound).
    static let maximumStackBytes = 256 * 1024

    /// The frames of `thread` asleep in `call`, or nil if it woke meanwhile
    /// (or its stack cannot be read).
    /// `isLastFrame`: see ``StackWalk/frames(programCounter:stackPointer:words:maxFrames:isInnermostCode:isLastFrame:isReturnAddress:)``.
    static func capture(
        thread: UInt64, call: ThreadStatus.BlockedCall, regions: MemoryRegions, isLastFrame: (UInt) -> Bool = { _ in false }
    ) -> [UInt]? {
        guard let memory = ProcessMemory.shared, let stack = regions.region(containing: call.stackPointer) else {
            return nil
        }
        let wordSize = MemoryLayout<UInt>.size
        let length = min(Int(stack.end &- call.stackPointer), maximumStackBytes) / wordSize * wordSize
        var words = [UInt](repeating: 0, count: length / wordSize)
        let read = words.withUnsafeMutableBytes { memory.read(at: call.stackPointer, into: $0) }
        guard read >= wordSize else { return nil }
        var calls = CallCheck(memory: memory, regions: regions)
        let code = regions.region(containing: call.programCounter)?.start
        let frames = words.withUnsafeBufferPointer { all in
            StackWalk.frames(
                programCounter: call.programCounter, stackPointer: call.stackPointer,
                words: UnsafeBufferPointer(rebasing: all[..<(read / wordSize)]),
                isInnermostCode: { regions.region(containing: $0)?.start == code }, isLastFrame: isLastFrame
            ) { calls.isReturnAddress($0) }
        }
        // Still asleep in the same call at the same place: the stack did not move under the walk.
        guard ThreadStatus.of(thread: thread) == .blocked(call) else { return nil }
        return frames
    }

    /// Whether a word is a return address: it points into executable memory,
    /// just after a call instruction. Remembers what it read.
    private struct CallCheck {
        let memory: ProcessMemory
        let regions: MemoryRegions
        var known: [UInt: Bool] = [:]

        mutating func isReturnAddress(_ address: UInt) -> Bool {
            guard address > 8, regions.isExecutable(address &- 1) else { return false }
            if let answer = known[address] { return answer }
            var bytes: (UInt64, UInt64) = (0, 0)
            let read = withUnsafeMutableBytes(of: &bytes) { memory.read(at: address &- 8, into: $0) }
            let answer = read >= 8 && withUnsafeBytes(of: &bytes) { Self.endsWithCall(Array($0.prefix(8))) }
            known[address] = answer
            return answer
        }

        /// Whether the 8 bytes before a return address end with a call instruction.
        static func endsWithCall(_ b: [UInt8]) -> Bool {
            #if arch(x86_64)
            func at(_ back: Int) -> UInt8 { b[8 - back] }
            func isREX(_ byte: UInt8) -> Bool { byte & 0xF0 == 0x40 }
            if at(5) == 0xE8 { return true }  // call rel32
            if at(2) == 0xFF && (at(1) & 0xF8 == 0xD0 || at(1) & 0xF8 == 0x10) { return true }  // call reg, [reg]
            if at(3) == 0xFF && (at(2) & 0xF8 == 0x50 || at(2) == 0x14) { return true }  // [reg+d8], [sib]
            if isREX(at(3)) && at(2) == 0xFF && at(1) & 0xF8 == 0xD0 { return true }  // call r8-r15
            if at(4) == 0xFF && at(3) == 0x54 { return true }  // [sib+d8]
            if isREX(at(4)) && at(3) == 0xFF && at(2) & 0xF8 == 0x50 { return true }
            if at(6) == 0xFF && (at(5) == 0x15 || at(5) & 0xF8 == 0x90) { return true }  // [rip+d32], [reg+d32]
            if at(7) == 0xFF && at(6) == 0x94 { return true }  // [sib+d32]
            if isREX(at(7)) && at(6) == 0xFF && at(5) & 0xF8 == 0x90 { return true }
            return false
            #elseif arch(arm64)
            let instruction = UInt32(b[4]) | UInt32(b[5]) << 8 | UInt32(b[6]) << 16 | UInt32(b[7]) << 24
            return instruction & 0xFC00_0000 == 0x9400_0000 || instruction & 0xFFFF_FC1F == 0xD63F_0000
            #else
            return false
            #endif
        }
    }
}
#endif
