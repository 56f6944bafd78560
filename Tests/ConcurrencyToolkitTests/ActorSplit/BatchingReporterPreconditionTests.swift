import ConcurrencyToolkit
import Testing

#if os(macOS) || os(Linux)  // exit tests: Apple's other platforms have none
/// `BatchingReporter`'s bad capacity, in the suite of every part's
/// (Support/PreconditionMessageTests.swift), which CI also runs in a release build.
extension PreconditionMessageTests {
    @Test func batchingReporterCapacityZero() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = BatchingReporter<String>(interval: .milliseconds(20), capacity: 0) { _ in }
        }
        let text = standardError(of: result)
        #expect(text.contains("BatchingReporter(capacity: 0): capacity must be at least 1"), "\(text)")
    }
}
#endif
