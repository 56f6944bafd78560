/// The function a call instruction called, found from the return address
/// just after it: for a thread blocked in a C library function that reaches
/// the kernel through internal functions only (`sem_timedwait` waits in
/// glibc's `__futex_abstimed_wait_common`, which has no exported name), the
/// caller's own call instruction still says what it called.
///
/// x86-64 only, the two forms compilers emit for a call into a shared
/// library: `call rel32` to a PLT entry (`jmp *slot(%rip)`, maybe after
/// `endbr64` and with a `bnd` prefix), and `call *slot(%rip)` (no PLT). The
/// slot, in the global offset table, holds the function's address once it
/// was called, which is then named by the caller (`dladdr`). Anything else,
/// or an unreadable byte, gives nil.
///
/// ```swift
/// // The return address into `blockingCall`, just after `call sem_timedwait@plt`:
/// let target = CallTarget.function(calledBefore: 0x5611_f9d9_1ff9) { address, buffer in
///     ProcessMemory.shared?.read(at: address, into: buffer) ?? 0
/// }
/// // the address of sem_timedwait in libc, to name with dladdr
/// ```
enum CallTarget {
    /// Reads bytes at an address into a buffer, returning how many it read.
    typealias Read = (UInt, UnsafeMutableRawBufferPointer) -> Int

    static func function(calledBefore returnAddress: UInt, read: Read) -> UInt? {
        #if arch(x86_64)
        guard returnAddress > 16 else { return nil }
        var before = [UInt8](repeating: 0, count: 6)
        guard before.withUnsafeMutableBytes({ read(returnAddress &- 6, $0) }) == 6 else { return nil }
        if before[1] == 0xE8 {  // call rel32
            let target = returnAddress &+ UInt(bitPattern: Int(int32(before, at: 2)))
            return slotThroughPLT(at: target, read: read).flatMap { word(at: $0, read: read) }
        }
        if before[0] == 0xFF && before[1] == 0x15 {  // call *disp32(%rip)
            let slot = returnAddress &+ UInt(bitPattern: Int(int32(before, at: 2)))
            return word(at: slot, read: read)
        }
        return nil
        #else
        return nil
        #endif
    }

    /// Where a call instruction went, for any `call rel32` (a function of
    /// the same image, or a PLT entry, followed to the function it jumps to)
    /// and `call *disp32(%rip)`. Nil for a call through a register, or an
    /// unreadable byte. Used to check that a word that looks like a leaf
    /// function's return address came from a call into that leaf.
    static func destination(calledBefore returnAddress: UInt, read: Read) -> UInt? {
        #if arch(x86_64)
        guard returnAddress > 16 else { return nil }
        var before = [UInt8](repeating: 0, count: 6)
        guard before.withUnsafeMutableBytes({ read(returnAddress &- 6, $0) }) == 6 else { return nil }
        if before[1] == 0xE8 {
            let target = returnAddress &+ UInt(bitPattern: Int(int32(before, at: 2)))
            guard let slot = slotThroughPLT(at: target, read: read) else { return target }
            return word(at: slot, read: read)
        }
        return function(calledBefore: returnAddress, read: read)
        #else
        return nil
        #endif
    }

    /// The slot a PLT entry jumps through: `[endbr64] [bnd] jmp *disp32(%rip)`.
    static func slotThroughPLT(at entry: UInt, read: Read) -> UInt? {
        var bytes = [UInt8](repeating: 0, count: 11)
        guard bytes.withUnsafeMutableBytes({ read(entry, $0) }) == 11 else { return nil }
        var offset = 0
        if bytes[0...3] == [0xF3, 0x0F, 0x1E, 0xFA] { offset = 4 }  // endbr64
        if bytes[offset] == 0xF2 { offset += 1 }  // bnd
        guard offset + 6 <= bytes.count, bytes[offset] == 0xFF, bytes[offset + 1] == 0x25 else { return nil }
        let next = entry &+ UInt(offset + 6)
        return next &+ UInt(bitPattern: Int(int32(bytes, at: offset + 2)))
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
