#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
/// Whether a word on a stack is a return address: it points into executable
/// memory, just after a call instruction. The code is read through
/// ``ProcessMemory`` (a library unmapped meanwhile gives "no", not a crash).
/// Remembers what it read. Both captures unwind with it: a thread asleep in
/// the kernel (``BlockedStackCapture``) and a running one (``ThreadStackCapture``).
struct ReturnAddressCheck {
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
    static func endsWithCall(_ b: [UInt8], instructionSet: InstructionSet = .host) -> Bool {
        switch instructionSet {
        case .x86_64: return x86EndsWithCall(b)
        case .arm64: return arm64EndsWithCall(b)
        case .unknown: return false
        }
    }

    /// x86-64: `call rel32`, or `call` through a register or memory, in any
    /// of the lengths its ModRM forms take.
    static func x86EndsWithCall(_ b: [UInt8]) -> Bool {
        guard b.count == 8 else { return false }
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
    }

    /// arm64: the last instruction is `bl imm26`, `blr xN`, or one of the
    /// pointer-authenticating `blraa`/`blrab` (and their `z` forms).
    static func arm64EndsWithCall(_ b: [UInt8]) -> Bool {
        guard b.count == 8 else { return false }
        let instruction = UInt32(b[4]) | UInt32(b[5]) << 8 | UInt32(b[6]) << 16 | UInt32(b[7]) << 24
        return instruction & 0xFC00_0000 == 0x9400_0000  // bl
            || instruction & 0xFFFF_FC1F == 0xD63F_0000  // blr
            || instruction & 0xFFFF_F81F == 0xD63F_081F  // blraaz, blrabz
            || instruction & 0xFFFF_F800 == 0xD73F_0800  // blraa, blrab
    }
}

extension StackWalk {
    /// A stack of this process, copied into `words`, walked with its code
    /// read through `memory`: return addresses told by
    /// ``ReturnAddressCheck``, the innermost code being the mapping the
    /// program counter is in, and (with a frame pointer) each call checked
    /// by ``CallTarget/destination(calledBefore:read:)``. Both captures walk
    /// with it: a thread asleep in the kernel (``BlockedStackCapture``, no
    /// frame pointer) and a stopped one (``ThreadStackCapture``).
    static func frames(
        programCounter: UInt, stackPointer: UInt, framePointer: UInt? = nil, words: UnsafeBufferPointer<UInt>,
        regions: MemoryRegions, memory: ProcessMemory, isLastFrame: ((UInt) -> Bool)?
    ) -> [UInt] {
        var calls = ReturnAddressCheck(memory: memory, regions: regions)
        let code = regions.region(containing: programCounter)?.start
        return frames(
            programCounter: programCounter, stackPointer: stackPointer, framePointer: framePointer, words: words,
            isInnermostCode: { regions.region(containing: $0)?.start == code }, isLastFrame: isLastFrame,
            callReaches: { returnAddress, callee in
                // The call went to the function containing `callee`: its entry is at or below it, and not far.
                CallTarget.destination(calledBefore: returnAddress) { memory.read(at: $0, into: $1) }
                    .map { $0 <= callee && callee &- $0 < 128 * 1024 }
            }
        ) { calls.isReturnAddress($0) }
    }
}
#endif
