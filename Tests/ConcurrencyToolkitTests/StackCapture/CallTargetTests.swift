@testable import ConcurrencyToolkit
import Testing
import TestSupport

/// Finding what a call instruction called, on made-up x86-64 and arm64 code:
/// the caller's bytes, a PLT entry and a GOT slot, read from a dictionary.
/// Both instruction sets are decoded on any machine.
@Suite struct CallTargetTests {
    /// Bytes at addresses; anything else is unreadable.
    struct FakeMemory {
        var bytes: [UInt: UInt8] = [:]

        mutating func put(_ values: [UInt8], at address: UInt) {
            for (offset, value) in values.enumerated() { bytes[address + UInt(offset)] = value }
        }

        mutating func put(word: UInt, at address: UInt) {
            withUnsafeBytes(of: word.littleEndian) { put(Array($0), at: address) }
        }

        func read(_ address: UInt, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
            for index in 0..<buffer.count {
                guard let byte = bytes[address + UInt(index)] else { return index }
                buffer[index] = byte
            }
            return buffer.count
        }
    }

    static func littleEndian(_ value: Int32) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }

    @Test(arguments: [[UInt8](), [0xF3, 0x0F, 0x1E, 0xFA, 0xF2]])
    func aCallThroughThePLTNamesTheSlotsFunction(prefix: [UInt8]) {
        var memory = FakeMemory()
        let returnAddress: UInt = 0x40_1005
        let plt: UInt = 0x40_0100
        // call rel32 (E8), the 5 bytes before the return address.
        memory.put([0x90, 0xE8] + Self.littleEndian(Int32(Int(plt) - Int(returnAddress))), at: returnAddress - 6)
        // The PLT entry: [endbr64] [bnd] jmp *disp32(%rip), then padding.
        let slot: UInt = 0x60_0018
        let jumpEnd = plt + UInt(prefix.count) + 6
        memory.put(prefix + [0xFF, 0x25] + Self.littleEndian(Int32(Int(slot) - Int(jumpEnd))) + [0x90, 0x90, 0x90, 0x90, 0x90], at: plt)
        memory.put(word: 0x7F00_DEAD_BEE0, at: slot)
        #expect(CallTarget.function(calledBefore: returnAddress, instructionSet: .x86_64, read: memory.read) == 0x7F00_DEAD_BEE0)
    }

    @Test func anIndirectCallThroughTheGOTNamesTheSlotsFunction() {
        var memory = FakeMemory()
        let returnAddress: UInt = 0x40_2006
        let slot: UInt = 0x60_0040
        memory.put([0xFF, 0x15] + Self.littleEndian(Int32(Int(slot) - Int(returnAddress))), at: returnAddress - 6)
        memory.put(word: 0x7F00_0000_1230, at: slot)
        #expect(CallTarget.function(calledBefore: returnAddress, instructionSet: .x86_64, read: memory.read) == 0x7F00_0000_1230)
    }

    @Test func otherCodeOrUnreadableBytesGiveNothing() {
        var memory = FakeMemory()
        // A call through a register (call *%rax): the target is not in the code.
        memory.put([0x90, 0x90, 0x90, 0x90, 0xFF, 0xD0], at: 0x40_3000)
        #expect(CallTarget.function(calledBefore: 0x40_3006, instructionSet: .x86_64, read: memory.read) == nil)
        // A direct call to code that is not a PLT entry.
        memory.put([0x90, 0xE8] + Self.littleEndian(0x100), at: 0x40_4000)
        memory.put([UInt8](repeating: 0x55, count: 16), at: 0x40_4106)
        #expect(CallTarget.function(calledBefore: 0x40_4006, instructionSet: .x86_64, read: memory.read) == nil)
        // A PLT entry whose slot cannot be read.
        memory.put([0x90, 0xE8] + Self.littleEndian(0x200), at: 0x40_5000)
        memory.put([0xFF, 0x25] + Self.littleEndian(0x1000) + [0x90, 0x90, 0x90, 0x90, 0x90], at: 0x40_5206)
        #expect(CallTarget.function(calledBefore: 0x40_5006, instructionSet: .x86_64, read: memory.read) == nil)
        // Nothing readable at all.
        #expect(CallTarget.function(calledBefore: 0x40_6006, instructionSet: .x86_64, read: memory.read) == nil)
    }
}
