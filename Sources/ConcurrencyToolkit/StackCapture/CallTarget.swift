/// The function a call instruction called, found from the return address
/// just after it: for a thread blocked in a C library function that reaches
/// the kernel through internal functions only (`sem_timedwait` waits in
/// glibc's `__futex_abstimed_wait_common`, which has no exported name), the
/// caller's own call instruction still says what it called.
///
/// The forms compilers emit for a call into a shared library, decoded for
/// both instruction sets (``InstructionSet``):
/// - x86-64: `call rel32` to a PLT entry (`jmp *slot(%rip)`, maybe after
///   `endbr64` and with a `bnd` prefix), and `call *slot(%rip)` (no PLT);
/// - arm64: `bl imm26` to a PLT entry (`adrp x16, page; ldr x17, [x16, off];
///   add x16, x16, off; br x17`). A call through the GOT without a PLT is a
///   `blr` through a register there, which says nothing of its target.
///
/// The slot, in the global offset table, holds the function's address once
/// it was called, which is then named by the caller (`dladdr`). Anything
/// else, or an unreadable byte, gives nil.
enum CallTarget {
    /// Reads bytes at an address into a buffer, returning how many it read.
    typealias Read = (UInt, UnsafeMutableRawBufferPointer) -> Int

    static func function(calledBefore returnAddress: UInt, instructionSet: InstructionSet = .host, read: Read) -> UInt? {
        switch instructionSet {
        case .x86_64:
            guard let (opcode, target) = x86Call(before: returnAddress, read: read) else { return nil }
            if opcode == 0xE8 { return slotThroughPLT(at: target, instructionSet: .x86_64, read: read).flatMap { word(at: $0, read: read) } }
            return word(at: target, read: read)  // call *disp32(%rip): target is the slot
        case .arm64:
            guard let target = arm64BranchAndLink(before: returnAddress, read: read) else { return nil }
            return slotThroughPLT(at: target, instructionSet: .arm64, read: read).flatMap { word(at: $0, read: read) }
        case .unknown:
            return nil
        }
    }

    /// Where a call instruction went, for any direct call (a function of the
    /// same image, or a PLT entry, followed to the function it jumps to) and
    /// x86-64's `call *disp32(%rip)`. Nil for a call through a register, or
    /// an unreadable byte. Used to check that a word that looks like a leaf
    /// function's return address came from a call into that leaf.
    static func destination(calledBefore returnAddress: UInt, instructionSet: InstructionSet = .host, read: Read) -> UInt? {
        let target: UInt?
        switch instructionSet {
        case .x86_64:
            guard let (opcode, found) = x86Call(before: returnAddress, read: read) else { return nil }
            if opcode != 0xE8 { return word(at: found, read: read) }
            target = found
        case .arm64:
            target = arm64BranchAndLink(before: returnAddress, read: read)
        case .unknown:
            target = nil
        }
        guard let target else { return nil }
        guard let slot = slotThroughPLT(at: target, instructionSet: instructionSet, read: read) else { return target }
        return word(at: slot, read: read)
    }

    /// x86-64: the call just before `returnAddress`, if it is `call rel32`
    /// (0xE8, and where it goes) or `call *disp32(%rip)` (0x15, and the slot).
    private static func x86Call(before returnAddress: UInt, read: Read) -> (opcode: UInt8, target: UInt)? {
        guard returnAddress > 16 else { return nil }
        var before = [UInt8](repeating: 0, count: 6)
        guard before.withUnsafeMutableBytes({ read(returnAddress &- 6, $0) }) == 6 else { return nil }
        if before[1] == 0xE8 { return (0xE8, returnAddress &+ UInt(bitPattern: Int(int32(before, at: 2)))) }
        if before[0] == 0xFF && before[1] == 0x15 { return (0x15, returnAddress &+ UInt(bitPattern: Int(int32(before, at: 2)))) }
        return nil
    }

    /// arm64: where `bl imm26` just before `returnAddress` went.
    private static func arm64BranchAndLink(before returnAddress: UInt, read: Read) -> UInt? {
        guard returnAddress > 16, let instruction = arm64Instruction(at: returnAddress &- 4, read: read),
            instruction & 0xFC00_0000 == 0x9400_0000
        else { return nil }
        let offset = Int(Int32(bitPattern: instruction << 6) >> 6) * 4  // imm26, signed, in instructions
        return (returnAddress &- 4) &+ UInt(bitPattern: offset)
    }

    /// The slot a PLT entry jumps through. x86-64: `[endbr64] [bnd] jmp
    /// *disp32(%rip)`; arm64: `adrp x16, page; ldr x17, [x16, #off]; add x16,
    /// x16, #off; br x17`.
    static func slotThroughPLT(at entry: UInt, instructionSet: InstructionSet = .host, read: Read) -> UInt? {
        switch instructionSet {
        case .x86_64:
            var bytes = [UInt8](repeating: 0, count: 11)
            guard bytes.withUnsafeMutableBytes({ read(entry, $0) }) == 11 else { return nil }
            var offset = 0
            if bytes[0...3] == [0xF3, 0x0F, 0x1E, 0xFA] { offset = 4 }  // endbr64
            if bytes[offset] == 0xF2 { offset += 1 }  // bnd
            guard offset + 6 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] == 0x25 else { return nil }
            let next = entry &+ UInt(offset + 6)
            return next &+ UInt(bitPattern: Int(int32(bytes, at: offset + 2)))
        case .arm64:
            guard let adrp = arm64Instruction(at: entry, read: read), adrp & 0x9F00_001F == 0x9000_0010,  // adrp x16
                let load = arm64Instruction(at: entry &+ 4, read: read), load & 0xFFC0_03FF == 0xF940_0211,  // ldr x17, [x16, #imm]
                let branch = arm64Instruction(at: entry &+ 12, read: read), branch == 0xD61F_0220  // br x17
            else { return nil }
            let pages = Int32(bitPattern: (((adrp >> 5) & 0x7FFFF) << 2 | (adrp >> 29) & 0x3) << 11) >> 11  // immhi:immlo, signed
            let page = (entry & ~UInt(0xFFF)) &+ UInt(bitPattern: Int(pages) << 12)
            return page &+ UInt((load >> 10) & 0xFFF) * 8
        case .unknown:
            return nil
        }
    }

    private static func arm64Instruction(at address: UInt, read: Read) -> UInt32? {
        var value: UInt32 = 0
        let count = withUnsafeMutableBytes(of: &value) { read(address, $0) }
        return count == 4 ? UInt32(littleEndian: value) : nil
    }

    private static func int32(_ bytes: [UInt8], at index: Int) -> Int32 {
        Int32(bitPattern: UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16
            | UInt32(bytes[index + 3]) << 24)
    }

    private static func word(at address: UInt, read: Read) -> UInt? {
        var value: UInt = 0
        let count = withUnsafeMutableBytes(of: &value) { read(address, $0) }
        return count == MemoryLayout<UInt>.size && value != 0 ? value : nil
    }
}
