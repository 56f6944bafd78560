import ConcurrencyToolkit
import Testing
import TestSupport

#if os(macOS) || os(Linux)  // exit tests: Apple's other platforms have none
/// The trapping handler crashes the process like `CheckedContinuation` does.
/// Each body runs in a fresh child process, so `bootstrap` is allowed there.
@Suite struct TrapTests {
    @Test func checkedContinuationCrashesOnDoubleResume() async {
        // The behaviour the trapping handler reproduces.
        await #expect(processExitsWith: .failure) {
            _ = await withCheckedContinuation { (c: CheckedContinuation<Int, Never>) in
                c.resume(returning: 1)
                c.resume(returning: 2)
            }
        }
    }

    @Test func trapHandlerCrashesOnDoubleResumeWithTheReport() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                ContinuationMisuseHandler.bootstrap(.trap)
                _ = await withSafeContinuation(ifLeaked: 0) { (c: SafeContinuation<Int, Never>) in
                    c.resume(returning: 1)
                    c.resume(returning: 2)
                }
            })
        let standardError = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(standardError.contains("CONTINUATION MISUSE:"))
        #expect(standardError.contains("resumed more than once"))
    }

    @Test func trapHandlerCrashesOnLeak() async {
        await #expect(processExitsWith: .failure) {
            ContinuationMisuseHandler.bootstrap(.trap)
            _ = try? await withSafeThrowingContinuation { (_: SafeContinuation<Int, any Error>) in }
        }
    }

    @Test func defaultHandlerLogsAndCarriesOn() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                _ = await withSafeContinuation(ifLeaked: 0) { (c: SafeContinuation<Int, Never>) in
                    c.resume(returning: 1)
                    c.resume(returning: 2)
                }
            })
        let standardError = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(standardError.contains("CONTINUATION MISUSE: SafeContinuation created at"))
    }

    @Test func scopedTrapHandlerCrashesToo() async {
        await #expect(processExitsWith: .failure) {
            await withContinuationMisuseHandler(.trap) {
                _ = await withSafeContinuation(ifLeaked: 0) { (c: SafeContinuation<Int, Never>) in
                    c.resume(returning: 1)
                    c.resume(returning: 2)
                }
            }
        }
    }
}
#endif
