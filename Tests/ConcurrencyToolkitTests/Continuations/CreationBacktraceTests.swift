import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Testing
import TestSupport

/// With the opt-in on, a report through a wrapper names the wrapper's caller
/// in its creation backtrace. Each test runs in a child process, so turning
/// the process-wide option on touches no other test.
@Suite struct CreationBacktraceTests {
    #if os(macOS) || os(Linux)  // exit tests: Apple's other platforms have none
    @Test func reportThroughAWrapperNamesTheCallersFrame() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                ContinuationMisuse.capturesCreationBacktraces = true
                await callerThatUsesTheWrapper()
            })
        let text = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(text.contains("Created from: "), "\(text)")
        #expect(text.contains("callerThatUsesTheWrapper()"), "\(text)")
        #expect(text.contains("Wrapper.wait()"), "\(text)")
        #expect(!text.contains("ContinuationStorage"), "the toolkit's own frames are left out: \(text)")
    }

    /// The caller that created the continuation after a suspension, and its
    /// own async caller, are reached only through the task's async contexts.
    @Test func asyncCallersAreNamed() async throws {
        let result = try #require(
            await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
                ContinuationMisuse.capturesCreationBacktraces = true
                await outerAsyncCaller()
            })
        let text = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(text.contains("callerAfterASuspension() at Tests/ConcurrencyToolkitTests/Continuations/CreationBacktraceTests.swift:"), "\(text)")
        #expect(text.contains("outerAsyncCaller() at Tests/ConcurrencyToolkitTests/Continuations/CreationBacktraceTests.swift:"), "\(text)")
    }
    #endif

    @Test func offByDefault() async {
        let (_, misuses) = await withContinuationMisuseRecorded {
            await Wrapper().wait()
        }
        #expect(misuses.map(\.kind) == [.resumedMoreThanOnce])
        #expect(misuses.first?.creationBacktrace == [])
    }
}

/// A wrapper such as FlyingFox's: it does not pass its caller's site on, so
/// only the backtrace can name the caller.
struct Wrapper {
    func wait() async {
        await withSafeContinuation { (c: SafeContinuation<Void, Never>) in
            c.resume()
            c.resume()
        }
    }
}

@inline(never)
func callerThatUsesTheWrapper() async {
    await Wrapper().wait()
}

@inline(never)
func callerAfterASuspension() async {
    try? await Task.sleep(for: .milliseconds(1))
    await Wrapper().wait()
}

@inline(never)
func outerAsyncCaller() async {
    await Task.yield()
    await callerAfterASuspension()
    await Task.yield()
}
