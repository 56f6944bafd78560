import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Dispatch
import Foundation
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(1))) struct ResumeTests {
    @Test func resumeFromADispatchQueue() async throws {
        let value = try await withSafeThrowingContinuation { (c: SafeContinuation<Int, any Error>) in
            DispatchQueue(label: "callback").async { c.resume(returning: 1) }
        }
        #expect(value == 1)
    }

    @Test func resumeFromAPlainThread() async throws {
        let value = await withSafeContinuation(ifLeaked: "leaked") { (c: SafeContinuation<String, Never>) in
            Thread { c.resume(returning: "from a thread") }.start()
        }
        #expect(value == "from a thread")
    }

    @Test func resumeFromAnotherTask() async throws {
        let value = try await withSafeThrowingContinuation { (c: SafeContinuation<Int, any Error>) in
            Task.detached { c.resume(returning: 3) }
        }
        #expect(value == 3)
    }

    @Test func resumeThrowingDeliversTheError() async {
        struct Refused: Error, Equatable {}
        let result = await outcome {
            try await withSafeThrowingContinuation { (c: SafeContinuation<Int, any Error>) in
                DispatchQueue.global().async { c.resume(throwing: Refused()) }
            }
        }
        #expect(throws: Refused()) { try result.get() }
    }

    @Test func resumeWithATypedResultFromACallbackAPI() async throws {
        enum ClientError: Error { case offline }
        let callback: (@escaping @Sendable (Result<Int, ClientError>) -> Void) -> Void = { done in
            DispatchQueue.global().async { done(.success(9)) }
        }
        let value = try await withSafeThrowingContinuation { (c: SafeContinuation<Int, any Error>) in
            callback { c.resume(with: $0) }
        }
        #expect(value == 9)
    }

    @Test func firstResumeWinsAndEachExtraResumeIsReportedOnceNamingBothSites() async throws {
        let creationLine = #line + 3
        var extraLines: [Int] = []
        let (value, misuses) = await withContinuationMisuseRecorded {
            await withSafeContinuation(ifLeaked: 0) { (c: SafeContinuation<Int, Never>) in
                #expect(c.resume(returning: 1))
                extraLines.append(#line + 1)
                #expect(!c.resume(returning: 2))
                extraLines.append(#line + 1)
                #expect(!c.resume(returning: 3))
            }
        }
        #expect(value == 1)
        #expect(misuses.count == 2)
        #expect(misuses.allSatisfy { $0.kind == .resumedMoreThanOnce })
        #expect(misuses.map(\.creationSite.line) == [creationLine, creationLine])
        #expect(misuses.allSatisfy { $0.creationSite.fileID == "ConcurrencyToolkitTests/ResumeTests.swift" })
        #expect(misuses.map { $0.resumeSite?.line } == extraLines)
        #expect(misuses.allSatisfy { $0.resumeSite?.function == $0.creationSite.function })
        let text = try #require(misuses.first?.description)
        #expect(text.contains("ResumeTests.swift:\(creationLine)") && text.contains("ResumeTests.swift:\(extraLines[0])"))
    }

    @Test func voidResumeAndCreationSite() async {
        let (_, misuses) = await withContinuationMisuseRecorded {
            await withSafeContinuation(ifLeaked: ()) { (c: SafeContinuation<Void, Never>) in
                #expect(c.creationSite.fileID == "ConcurrencyToolkitTests/ResumeTests.swift")
                #expect(c.resume())
                #expect(!c.resume())
            }
        }
        #expect(misuses.map(\.kind) == [.resumedMoreThanOnce])
    }

    /// The body runs on the caller's actor, synchronously, as with the standard library's.
    actor Downloads {
        var started = 0
        func fetch() async throws -> Int {
            try await withSafeThrowingContinuation(timeout: .seconds(30), onCancel: {}) { (c: SafeContinuation<Int, any Error>) in
                started += 1  // actor state, touched without await: the body is isolated
                DispatchQueue.global().async { c.resume(returning: 5) }
            }
        }
    }

    @Test func bodyRunsIsolatedToTheCallingActor() async throws {
        let downloads = Downloads()
        #expect(try await downloads.fetch() == 5)
        #expect(await downloads.started == 1)
    }

    @Test func nonSendableResultIsAccepted() async {
        // Like the standard library's, the value only needs to be `sending`.
        final class Page { var text = "" }
        let page = await withSafeContinuation(ifLeaked: Page()) { (c: SafeContinuation<Page, Never>) in
            let fresh = Page()
            fresh.text = "hello"
            c.resume(returning: fresh)
        }
        #expect(page.text == "hello")
    }
}
