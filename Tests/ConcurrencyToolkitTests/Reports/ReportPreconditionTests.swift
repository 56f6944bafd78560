import ConcurrencyToolkit
import Testing

#if os(macOS) || os(Linux)  // exit tests: Apple's other platforms have none
/// A second bootstrap of a process-wide handler names both call sites, in
/// release builds too (the suite is Support/PreconditionMessageTests.swift).
extension PreconditionMessageTests {
    @Test func secondBootstrapNamesBothSites() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            ConcurrencyStallHandler.bootstrap(.logToStandardError)
            ConcurrencyStallHandler.bootstrap(.logToStandardError)
        }
        let text = standardError(of: result)
        #expect(text.contains("bootstrap called twice: first at ConcurrencyToolkitTests/ReportPreconditionTests.swift:"), "\(text)")
        #expect(text.contains("Install the process-wide handler once"), "\(text)")
    }
}
#endif
