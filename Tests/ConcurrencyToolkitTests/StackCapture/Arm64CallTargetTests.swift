@testable import ConcurrencyToolkit
import Testing

/// arm64's calls, decoded on made-up code (on any machine): `bl` into a PLT
/// entry whose `adrp`/`ldr` name the GOT slot, and the instructions that end
/// a return address's call.
@Suite struct Arm64CallTargetTests {
    typealias FakeMemory = CallTargetTests.FakeMemory

    static func instruction(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

    static func branchAndLink(from address: UInt, to target: UInt) -> UInt32 {
        0x9400_0000 | UInt32(truncatingIfNeeded: (Int(target) - Int(address)) / 4) & 0x03FF_FFFF
    }

    /// The PLT entry for `slot`, at `entry`: adrp x16; ldr x17, [x16, #off]; add x16, x16, #off; br x17.
    static func pltEntry(at entry: UInt, slot: UInt) -> [UInt8] {
        let pages = Int(slot >> 12) - Int(entry >> 12)
        let immediate = UInt32(truncatingIfNeeded: pages) & 0x1F_FFFF
        let adrp = 0x9000_0010 | (immediate & 0x3) << 29 | (immediate >> 2) << 5
        let offset = UInt32(slot & 0xFFF)
        let load = 0xF940_0211 | (offset / 8) << 10
        let add = 0x9100_0210 | offset << 10
        return [adrp, load, add, 0xD61F_0220].flatMap(instruction)
    }

    @Test(arguments: [(UInt(0x40_1000), UInt(0x40_0100), UInt(0x60_0018)), (0x7_0000_2000, 0x7_0010_0000, 0x6_FFFF_FF00)])
    func aBranchAndLinkIntoThePLTNamesTheSlotsFunction(call: UInt, plt: UInt, slot: UInt) {
        var memory = FakeMemory()
        memory.put(Self.instruction(Self.branchAndLink(from: call, to: plt)), at: call)
        memory.put(Self.pltEntry(at: plt, slot: slot), at: plt)
        memory.put(word: 0x7F00_DEAD_BEE0, at: slot)
        #expect(CallTarget.slotThroughPLT(at: plt, instructionSet: .arm64, read: memory.read) == slot)
        #expect(CallTarget.function(calledBefore: call + 4, instructionSet: .arm64, read: memory.read) == 0x7F00_DEAD_BEE0)
        #expect(CallTarget.destination(calledBefore: call + 4, instructionSet: .arm64, read: memory.read) == 0x7F00_DEAD_BEE0)
    }

    @Test func aBranchAndLinkWithinTheImageGoesToItsTarget() {
        var memory = FakeMemory()
        let call: UInt = 0x40_3000
        let target: UInt = 0x40_2F00  // backwards: a negative offset
        memory.put(Self.instruction(Self.branchAndLink(from: call, to: target)), at: call)
        memory.put(Self.instruction(0xA9BF_7BFD), at: target)  // stp x29, x30, [sp, #-16]!: no PLT entry
        #expect(CallTarget.destination(calledBefore: call + 4, instructionSet: .arm64, read: memory.read) == target)
        #expect(CallTarget.function(calledBefore: call + 4, instructionSet: .arm64, read: memory.read) == nil)
    }

    @Test func aCallThroughARegisterOrUnreadableBytesGiveNothing() {
        var memory = FakeMemory()
        memory.put(Self.instruction(0xD63F_0100), at: 0x40_4000)  // blr x8
        #expect(CallTarget.destination(calledBefore: 0x40_4004, instructionSet: .arm64, read: memory.read) == nil)
        #expect(CallTarget.function(calledBefore: 0x40_5004, instructionSet: .arm64, read: memory.read) == nil)
    }

    @Test(arguments: [
        (UInt32(0x9400_0010), true),  // bl
        (0x97FF_FFFF, true),  // bl, backwards
        (0xD63F_0100, true),  // blr x8
        (0xD63F_0A3F, true),  // blraaz x17
        (0xD63F_0E3F, true),  // blrabz x17
        (0xD73F_0A30, true),  // blraa x17, x16
        (0xD61F_0220, false),  // br x17: a jump, not a call
        (0x1400_0010, false),  // b
        (0xD65F_03C0, false),  // ret
        (0xA9BF_7BFD, false),  // stp
    ])
    func theInstructionBeforeAReturnAddressIsACall(instruction: UInt32, isCall: Bool) {
        let bytes = [0, 0, 0, 0] + Self.instruction(instruction)
        #expect(ReturnAddressCheck.endsWithCall(bytes, instructionSet: .arm64) == isCall)
    }

    @Test(arguments: [
        ([UInt8]([0x90, 0x90, 0x90, 0xE8, 0x10, 0x00, 0x00, 0x00]), true),  // call rel32
        ([0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0xFF, 0xD0], true),  // call *%rax
        ([0x90, 0x90, 0xFF, 0x15, 0x10, 0x00, 0x00, 0x00], true),  // call *disp32(%rip)
        ([0x90, 0x90, 0x90, 0x90, 0x90, 0x41, 0xFF, 0xD3], true),  // call *%r11
        ([0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0x90, 0xC3], false),  // ret
        ([0x90, 0x90, 0x90, 0xE9, 0x10, 0x00, 0x00, 0x00], false),  // jmp rel32
    ])
    func x86InstructionsBeforeAReturnAddress(bytes: [UInt8], isCall: Bool) {
        #expect(ReturnAddressCheck.endsWithCall(bytes, instructionSet: .x86_64) == isCall)
    }
}
