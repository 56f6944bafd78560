import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Testing
import TestSupport

/// The spellings users write today keep compiling and matching now that the
/// misuse kinds and the error codes are open sets (structs with static members).
@Suite(.timeLimit(.minutes(1))) struct OpenSetSpellingTests {
    func doubleResume() async -> ContinuationMisuse {
        let (_, misuses) = await withContinuationMisuseRecorded {
            await withSafeContinuation(ifLeaked: 0) { c in
                c.resume(returning: 1)
                c.resume(returning: 2)
            }
        }
        return misuses[0]
    }

    @Test func misuseKindSpellings() async {
        let misuse = await doubleResume()
        #expect(misuse.kind == .resumedMoreThanOnce)
        #expect([misuse].map(\.kind) == [.resumedMoreThanOnce])
        let name: String
        switch misuse.kind {
        case .resumedMoreThanOnce: name = "double"
        case .leaked: name = "leak"
        default: name = "other"
        }
        #expect(name == "double")
        #expect("\(misuse.kind)" == "resumedMoreThanOnce")
    }

    func timedOut(line: Int = #line) async -> Result<Int, any Error> {
        await outcome {
            try await withSafeThrowingContinuation(timeout: .milliseconds(20), line: line) { (c: SafeContinuation<Int, any Error>) in
                sharedKept.append(c)
            }
        }
    }

    @Test func errorSpellings() async throws {
        let result = await timedOut()
        var caught = ""
        do { _ = try result.get() } catch SafeContinuationError.timedOut {
            caught = "timedOut"
        } catch SafeContinuationError.leaked {
            caught = "leaked"
        } catch {
            caught = "other"
        }
        #expect(caught == "timedOut")

        do { _ = try result.get() } catch let error as SafeContinuationError {
            #expect(error == .timedOut)
            #expect(error.code == .timedOut)
            if case .leaked = error { Issue.record("a timeout matched .leaked") }
            guard case .timedOut = error else { Issue.record("if case .timedOut did not match"); return }
            switch error.code {
            case .leaked: Issue.record("wrong code")
            case .timedOut: break
            default: Issue.record("wrong code")
            }
        }
        switch result {
        case .failure(SafeContinuationError.timedOut): break
        default: Issue.record("case .failure(SafeContinuationError.timedOut) did not match")
        }
        #expect(throws: SafeContinuationError.timedOut) { try result.get() }
    }

    @Test func timeoutErrorNamesTheSiteAndTheTimeout() async {
        let line = #line + 1
        let result = await timedOut(line: line)
        guard case .failure(let error as SafeContinuationError) = result else {
            Issue.record("expected a SafeContinuationError, got \(result)")
            return
        }
        #expect(error.creationSite?.line == line)
        #expect(error.timeout == .milliseconds(20))
        let text = "\(error)"
        #expect(text.contains("OpenSetSpellingTests.swift:\(line)"), "\(text)")
        #expect(text.contains("20 milliseconds"), "\(text)")
    }

    @Test func leakErrorNamesTheSite() async {
        let line = #line + 2
        let result = await outcome {
            try await withSafeThrowingContinuation { (_: SafeContinuation<Int, any Error>) in }
        }
        guard case .failure(let error as SafeContinuationError) = result else {
            Issue.record("expected a SafeContinuationError, got \(result)")
            return
        }
        #expect(error == .leaked)
        #expect("\(error)".contains("OpenSetSpellingTests.swift:\(line) in leakErrorNamesTheSite()"), "\(error)")
    }

    @Test func durationsReadAsPeopleWriteThem() {
        #expect("\(SafeContinuationError(code: .timedOut, timeout: .seconds(30)))".hasSuffix("of 30.0 seconds"))
        #expect("\(SafeContinuationError(code: .timedOut, timeout: .milliseconds(300)))".hasSuffix("of 300 milliseconds"))
        #expect("\(SafeContinuationError(code: .timedOut, timeout: .seconds(1)))".hasSuffix("of 1 second"))
    }
}

/// Keeps the continuations alive, so they time out rather than leak.
private let sharedKept = Collected<SafeContinuation<Int, any Error>>()
