/// Unwinds a stack that is only memory: the words from a stack pointer up,
/// with nothing of the thread's registers but its program counter and stack
/// pointer (what `/proc/self/task/TID/syscall` gives for a thread asleep in
/// the kernel), and its frame pointer where a signal stopped it. Pure: the words and the test for a return address come in,
/// the frames go out, so it is tested with made-up stacks.
///
/// The innermost frames are the C library's (`clock_nanosleep`, `usleep`),
/// built without frame pointers, so they are found by a **scan**: a word is a
/// return address when it points just after a call instruction. The scan
/// ends at the first **frame record** (a saved frame pointer that points
/// further up the stack, followed by a return address, whose own record is
/// valid too): from there the frame-pointer chain is followed, which Swift
/// code keeps, so stale words between frames are not mistaken for frames.
/// Where the chain ends early (an async function's frame, or one without a
/// frame pointer), the scan takes over again, but its frames are kept only
/// if it reaches the frame `isLastFrame` names (`swift_job_run`, for a
/// thread running a Swift job): stale words would otherwise pass for frames.
enum StackWalk {
    /// How far up from the stack pointer a frame record is looked for, in words.
    static let scanLimit = 2048

    /// The frames, innermost first: `programCounter`, then return addresses.
    /// `words[i]` is the word at `stackPointer + 8 * i`. `isInnermostCode`
    /// says whether an address lies in the code the program counter is in
    /// (the C library, for a system call): the scan takes return addresses
    /// while they stay there, and the first that leaves it (the return into
    /// the code that made the call); above that, only the frame-pointer chain
    /// counts, since the caller's locals may hold stale return addresses.
    ///
    /// `framePointer` is the interrupted thread's frame-pointer register, for
    /// a thread stopped by a signal (a thread asleep in the kernel has none to
    /// give). When it points at a valid frame record, the walk starts there,
    /// not with a scan. The stopped function owns that record when the call
    /// before the record's return address reached it (`callReaches`). If it
    /// does not (a leaf that sets up no frame, C library code that keeps no
    /// frame pointer, a function stopped in its prologue), its callers' return
    /// addresses lie between the stack pointer and the record: each word there
    /// is kept when its call reached the frame kept before it, so stale words
    /// in between fail. `callReaches(returnAddress, callee)` says whether the
    /// call just before `returnAddress` went to the function containing
    /// `callee`; nil: it cannot tell (a call through a register), and then
    /// only a word right at the stack pointer, or the next, is kept, as the
    /// stopped function's own return address.
    static func frames(
        programCounter: UInt, stackPointer: UInt, framePointer: UInt? = nil, words: UnsafeBufferPointer<UInt>,
        maxFrames: Int = 128, isInnermostCode: (UInt) -> Bool = { _ in true }, isLastFrame: ((UInt) -> Bool)? = nil,
        callReaches: (UInt, UInt) -> Bool? = { _, _ in nil }, isReturnAddress: (UInt) -> Bool
    ) -> [UInt] {
        let wordSize = UInt(MemoryLayout<UInt>.size)
        let top = stackPointer &+ UInt(words.count) &* wordSize
        func word(at address: UInt) -> UInt? {
            guard address >= stackPointer, address < top, (address &- stackPointer) % wordSize == 0 else { return nil }
            return words[Int((address &- stackPointer) / wordSize)]
        }
        /// A saved frame pointer above `address`, inside the stack.
        func isLink(_ framePointer: UInt, above address: UInt) -> Bool {
            framePointer > address && framePointer < top && framePointer % wordSize == 0
        }
        /// A frame record at `address` whose next record is valid too.
        func isFrameRecord(at address: UInt) -> Bool {
            guard let saved = word(at: address), let returnAddress = word(at: address &+ wordSize),
                isLink(saved, above: address), isReturnAddress(returnAddress),
                let next = word(at: saved), isLink(next, above: saved),
                let nextReturn = word(at: saved &+ wordSize)
            else { return false }
            return isReturnAddress(nextReturn)
        }

        var frames = [programCounter]
        let limit = min(words.count, scanLimit)
        /// The scan: return addresses while they stay in the innermost code,
        /// then the first frame record above them.
        func scanForRecord() -> UInt? {
            // The innermost code's frames, and the first return out of it. A
            // frame record is not looked for before that: the frame pointer the
            // C library saves is its caller's, which may have set none (and so
            // name a frame further out, skipping the caller).
            var index = 0
            var leftInnermostCode = false
            while index < limit && frames.count < maxFrames && !leftInnermostCode {
                if isReturnAddress(words[index]) {
                    frames.append(words[index])
                    leftInnermostCode = !isInnermostCode(words[index])
                }
                index += 1
            }
            if !leftInnermostCode { index = 0 }  // all one image: look for a record from the start
            while index < limit {
                let address = stackPointer &+ UInt(index) &* wordSize
                if isFrameRecord(at: address) { return address }
                index += 1
            }
            return nil
        }
        let record: UInt?
        if let framePointer, isFrameRecord(at: framePointer), let owned = word(at: framePointer &+ wordSize) {
            if callReaches(owned, programCounter) != true {
                var callee = programCounter
                let end = min(Int((framePointer &- stackPointer) / wordSize), words.count, scanLimit)
                for index in 0..<end where frames.count < maxFrames && words[index] != owned && isReturnAddress(words[index]) {
                    if callReaches(words[index], callee) ?? (callee == programCounter && index <= 1) {
                        frames.append(words[index])
                        callee = words[index]
                    }
                }
            }
            record = framePointer
        } else {
            record = scanForRecord()
        }
        guard var address = record else { return frames }
        while frames.count < maxFrames {
            guard let returnAddress = word(at: address &+ wordSize), returnAddress != 0 else { break }
            frames.append(returnAddress)
            guard let saved = word(at: address), isLink(saved, above: address) else { break }
            address = saved
        }
        // The chain ends (an async function's frame, or one without a frame
        // pointer), maybe below the stack's end: scan on, up to the frame
        // `isLastFrame` names (the job's entry), if any. Without one, nothing
        // past the chain is kept, so nothing is scanned.
        guard let isLastFrame else { return frames }
        var next = Int((address &- stackPointer) / wordSize) + 2
        var scanned: [UInt] = []
        while next < words.count && frames.count + scanned.count < maxFrames {
            if isReturnAddress(words[next]) {
                scanned.append(words[next])
                if isLastFrame(words[next]) { return frames + scanned }
            }
            next += 1
        }
        return frames
    }
}
