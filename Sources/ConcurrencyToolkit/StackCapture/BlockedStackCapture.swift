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
/// Whether the thread drains the main queue is read from the same words: the
/// drain's frames hold `_dispatch_main_q`, a pool thread's do not. (After
/// `dispatch_main()` any worker thread may drain it, so which thread last ran
/// a main-actor job says nothing.)
enum BlockedStackCapture {
    /// How much of a stack is read, at most (the rest is not unwound).
    static let maximumStackBytes = 256 * 1024

    /// The address of the main queue, which a thread draining it keeps on its stack.
    static let mainQueueAddress: UInt? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "_dispatch_main_q").map { UInt(bitPattern: $0) }

    /// The frames of `thread` asleep in `call`, and whether it drains the
    /// main queue; nil if it woke meanwhile (or its stack cannot be read).
    /// `isLastFrame`: see ``StackWalk/frames(programCounter:stackPointer:framePointer:words:maxFrames:isInnermostCode:isLastFrame:callReaches:isReturnAddress:)``.
    static func capture(
        thread: UInt64, call: ThreadStatus.BlockedCall, regions: MemoryRegions, isLastFrame: ((UInt) -> Bool)? = nil
    ) -> (frames: [UInt], drainsMainQueue: Bool)? {
        guard let memory = ProcessMemory.shared, let stack = regions.region(containing: call.stackPointer) else {
            return nil
        }
        let wordSize = MemoryLayout<UInt>.size
        let length = min(Int(stack.end &- call.stackPointer), maximumStackBytes) / wordSize * wordSize
        var words = [UInt](repeating: 0, count: length / wordSize)
        let read = words.withUnsafeMutableBytes { memory.read(at: call.stackPointer, into: $0) }
        guard read >= wordSize else { return nil }
        let frames = words.withUnsafeBufferPointer { all in
            StackWalk.frames(
                programCounter: call.programCounter, stackPointer: call.stackPointer,
                words: UnsafeBufferPointer(rebasing: all[..<(read / wordSize)]), regions: regions, memory: memory,
                isLastFrame: isLastFrame)
        }
        let drainsMainQueue = mainQueueAddress.map { address in words[..<(read / wordSize)].contains(address) } ?? false
        // Still asleep in the same call at the same place: the stack did not move under the walk.
        guard ThreadStatus.of(thread: thread) == .blocked(call) else { return nil }
        return (frames, drainsMainQueue)
    }
}
#endif
