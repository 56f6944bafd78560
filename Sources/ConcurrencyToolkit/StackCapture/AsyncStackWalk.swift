/// Walks the calling thread's own stack from a frame record, async callers
/// included. Pure: memory reads and the tests for code come in, the frames go
/// out, so it is tested with made-up memory.
///
/// The synchronous part follows the frame-pointer chain, which Swift code
/// keeps on every non-leaf function. It ends at the first return into the
/// concurrency runtime (`runJobInEstablishedExecutorContext`, under
/// `swift_job_run`): the frame that returns there is the job's resumed async
/// function, a `swiftasync` frame, which keeps its async context in the word
/// just below its frame record. From there the walk follows the contexts:
/// each one's first word is its caller's context, its second the address
/// its caller resumes at. The contexts are heap memory of the running task,
/// alive while it runs. (On Linux no frame-pointer bit marks an async frame,
/// so the Runtime module's unwinder finds them by symbol name; the runtime's
/// image is enough here, and needs no symbols.)
///
/// A resume address is the first instruction of a function, not a return
/// address: it is stored plus one, so that every frame after the first is
/// looked up at `address - 1`, as a return address is.
enum AsyncStackWalk {
    /// The frames above the frame record at `framePointer`, innermost first.
    /// `read(address)` is nil for memory the walk must not touch (outside the
    /// thread's stack, for the frame chain). `isCode` says whether an address
    /// lies in loaded code; `isConcurrencyRuntime` whether it lies in the
    /// concurrency runtime's image.
    static func frames(
        framePointer: UInt, limit: Int, read: (UInt) -> UInt?, readContext: (UInt) -> (parent: UInt, resume: UInt)?,
        isCode: (UInt) -> Bool, isConcurrencyRuntime: (UInt) -> Bool
    ) -> [UInt] {
        var frames: [UInt] = []
        var record = framePointer
        while frames.count < limit {
            guard let returnAddress = read(record &+ 8), isCode(returnAddress) else { return frames }
            if isConcurrencyRuntime(returnAddress) {
                guard let context = read(record &- 8) else { return frames }
                return frames + asyncFrames(from: context, limit: limit - frames.count, readContext: readContext, isCode: isCode)
            }
            frames.append(returnAddress)
            guard let saved = read(record), saved > record, saved &- record < 1 << 20 else { return frames }
            record = saved
        }
        return frames
    }

    /// The resume points of the contexts from `context` up, each plus one.
    private static func asyncFrames(
        from context: UInt, limit: Int, readContext: (UInt) -> (parent: UInt, resume: UInt)?, isCode: (UInt) -> Bool
    ) -> [UInt] {
        var frames: [UInt] = []
        var context = context
        while frames.count < limit, context != 0, context % 16 == 0, let (parent, resume) = readContext(context), isCode(resume) {
            frames.append(resume &+ 1)
            context = parent
        }
        return frames
    }

    /// The first frame record above `start` (the address of a local of the
    /// caller's own frame): a word that points further up, within a frame's
    /// reach, followed by a return address into code.
    static func firstRecord(above start: UInt, searchWords: Int = 64, read: (UInt) -> UInt?, isCode: (UInt) -> Bool) -> UInt? {
        for index in 0..<searchWords {
            let address = start &+ UInt(index) &* 8
            guard let saved = read(address) else { return nil }
            if saved > address, saved &- address < 1 << 20, saved % 8 == 0, let returnAddress = read(address &+ 8), isCode(returnAddress) {
                return address
            }
        }
        return nil
    }
}
