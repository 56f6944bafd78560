import ConcurrencyToolkit
import Testing

#if os(macOS) || os(Linux)  // exit tests: Apple's other platforms have none
/// `BlockingExecutor`'s bad arguments and misuse, in the suite of every part's
/// (Support/PreconditionMessageTests.swift), which CI also runs in a release
/// build.
extension PreconditionMessageTests {
    @Test func blockingExecutorWidthZero() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = BlockingExecutor(width: 0, label: "io")
        }
        let text = standardError(of: result)
        #expect(text.contains("BlockingExecutor(width: 0, label: \"io\"): width must be at least 1"), "\(text)")
    }

    @Test func sharedExecutorShutdown() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            await BlockingExecutor.shared.shutdown()
        }
        let text = standardError(of: result)
        #expect(text.contains("BlockingExecutor.shared.shutdown() at "), "\(text)")
        #expect(text.contains("the shared executor cannot be shut down"), "\(text)")
    }

    @Test func serialExecutorIsolationCheckedOffItsQueue() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            BlockingSerialExecutor(label: "db").checkIsolated()
        }
        let text = standardError(of: result)
        #expect(text.contains("not running on the BlockingSerialExecutor queue 'db'"), "\(text)")
    }
}
#endif
