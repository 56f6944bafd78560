import ConcurrencyToolkit
import Testing

#if os(macOS) || os(Linux)  // exit tests: Apple's other platforms have none
/// A caller's bad argument stops the process with a message that names the
/// parameter, the value and the valid range, in release builds too, where
/// `precondition` drops its message. CI runs this suite in a release build
/// (.ci/release-exit-tests); it passes in debug builds as well. Each part's
/// cases sit in its own folder, as extensions of this suite
/// (Blocking/BlockingExecutorPreconditionTests.swift).
@Suite struct PreconditionMessageTests {
    func standardError(of result: ExitTest.Result?) -> String {
        String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    }

    @Test func throttledProgressNegativeInterval() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = ThrottledProgress<Int>(interval: .seconds(-1)) { _ in }
        }
        let text = standardError(of: result)
        #expect(text.contains("(interval: -1.0 seconds): interval must be zero or more"), "\(text)")
    }

    @Test func concurrentMapMaxConcurrencyZero() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = await [1, 2, 3].concurrentMap(maxConcurrency: 0) { $0 }
        }
        let text = standardError(of: result)
        #expect(text.contains("(maxConcurrency: 0): maxConcurrency must be at least 1"), "\(text)")
    }
}
#endif
import TestSupport
