import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Testing
import TestSupport

@Suite(.timeLimit(.minutes(1))) struct SafeContinuationCoreTests {
    @Test func firstResumeWinsAndSecondIsReported() async throws {
        let (value, misuses) = try await withContinuationMisuseRecorded {
            try await withSafeThrowingContinuation { (c: SafeContinuation<Int, any Error>) in
                #expect(c.resume(returning: 1))
                #expect(!c.resume(returning: 2))
            }
        }
        #expect(value == 1)
        #expect(misuses.count == 1)
        #expect(misuses.first?.kind == .resumedMoreThanOnce)
        #expect(misuses.first?.creationSite.fileID == "ConcurrencyToolkitTests/SafeContinuationCoreTests.swift")
        #expect(misuses.first?.resumeSite != nil)
    }

    @Test func droppedContinuationResumesWaiterWithLeakError() async {
        let (outcome, misuses) = await withContinuationMisuseRecorded { () async -> Result<Int, any Error> in
            do {
                let value: Int = try await withSafeThrowingContinuation { _ in }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        #expect(throws: SafeContinuationError.leaked) { try outcome.get() }
        #expect(misuses.map(\.kind) == [.leaked])
    }

    @Test func droppedNonThrowingContinuationReturnsFallback() async {
        let (value, misuses) = await withContinuationMisuseRecorded {
            await withSafeContinuation(ifLeaked: -1) { (_: SafeContinuation<Int, Never>) in }
        }
        #expect(value == -1)
        #expect(misuses.map(\.kind) == [.leaked])
    }
}
