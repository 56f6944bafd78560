import ConcurrencyToolkit
import ConcurrencyToolkitTesting
import Dispatch
import Foundation
import Testing
import TestSupport

/// Real callback APIs with the shapes that break continuations.
@Suite(.timeLimit(.minutes(1))) struct BridgeTests {
    /// A file large enough that DispatchIO delivers it in many chunks.
    static func makeFile(bytes: Int) throws -> (path: String, contents: [UInt8]) {
        let contents = (0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("safe-continuation-\(UUID().uuidString)").path
        try Data(contents).write(to: URL(fileURLWithPath: path))
        return (path, contents)
    }

    /// Opens `path` for DispatchIO with a small high-water mark, so the read
    /// handler runs once per 4 KiB: the classic double-resume trap.
    static func openChannel(_ path: String) throws -> DispatchIO {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw CocoaError(.fileReadUnknown) }
        let channel = DispatchIO(type: .stream, fileDescriptor: descriptor, queue: .global()) { _ in close(descriptor) }
        channel.setLimit(highWater: 4096)
        return channel
    }

    /// The correct bridge: accumulate chunks, resume once when `done`.
    static func readAll(_ channel: DispatchIO, handlerRuns: Counter) async throws -> [UInt8] {
        try await withSafeThrowingContinuation { (c: SafeContinuation<[UInt8], any Error>) in
            let buffer = Lock<[UInt8]>([])
            channel.read(offset: 0, length: Int.max, queue: DispatchQueue(label: "reader")) { done, data, error in
                handlerRuns.increment()
                if let data { buffer.withLock { $0.append(contentsOf: data) } }
                if error != 0 {
                    c.resume(throwing: POSIXError(POSIXErrorCode(rawValue: error) ?? .EIO))
                } else if done {
                    c.resume(returning: buffer.withLock { $0 })
                }
            }
        }
    }

    @Test func dispatchIOReadBridgedCorrectlyResumesOnceAfterManyHandlerCalls() async throws {
        let (path, contents) = try Self.makeFile(bytes: 256 * 1024)
        defer { unlink(path) }
        let channel = try Self.openChannel(path)
        let handlerRuns = Counter()
        let (bytes, misuses) = try await withContinuationMisuseRecorded {
            try await Self.readAll(channel, handlerRuns: handlerRuns)
        }
        channel.close()
        #expect(bytes == contents)
        #expect(handlerRuns.count > 2, "the handler must have run several times")
        #expect(misuses.isEmpty)
    }

    @Test func naiveDispatchIOBridgeIsReportedNotCrashed() async throws {
        // The bug CheckedContinuation would crash on: resuming in every handler call.
        let (path, _) = try Self.makeFile(bytes: 64 * 1024)
        defer { unlink(path) }
        let channel = try Self.openChannel(path)
        let handlerRuns = Counter()
        let allDone = DispatchSemaphore(value: 0)
        let (firstChunk, misuses) = try await withContinuationMisuseRecorded { () async throws -> Int in
            let first = try await withSafeThrowingContinuation { (c: SafeContinuation<Int, any Error>) in
                channel.read(offset: 0, length: Int.max, queue: DispatchQueue(label: "reader")) { done, data, _ in
                    handlerRuns.increment()
                    c.resume(returning: data?.count ?? 0)  // the bug: once per chunk
                    if done { allDone.signal() }
                }
            }
            // Keep the scope open until the handler has finished resuming.
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                DispatchQueue.global().async { allDone.wait(); done.resume() }
            }
            return first
        }
        channel.close()
        let runs = handlerRuns.count
        #expect(firstChunk > 0)
        #expect(runs > 2)
        #expect(misuses.count == runs - 1, "one report per extra resume")
        #expect(misuses.allSatisfy { $0.kind == .resumedMoreThanOnce })
    }

    /// A legacy API that calls back only on success, and silently drops the
    /// callback on failure.
    final class SuccessOnlyClient: Sendable {
        private let pending = Lock<[Int: @Sendable (String) -> Void]>([:])

        func fetch(id: Int, completion: @escaping @Sendable (String) -> Void) {
            pending.withLock { $0[id] = completion }
            DispatchQueue.global().async {
                let callback = self.pending.withLock { $0.removeValue(forKey: id) }
                if id.isMultiple(of: 2) { callback?("item \(id)") }  // odd ids "fail": callback dropped
            }
        }
    }

    @Test func callbackThatFiresOnlyOnSuccessLeaksAndIsRecovered() async {
        let client = SuccessOnlyClient()
        let (results, misuses) = await withContinuationMisuseRecorded {
            var results: [Result<String, any Error>] = []
            for id in [2, 3] {
                results.append(await outcome {
                    try await withSafeThrowingContinuation { (c: SafeContinuation<String, any Error>) in
                        client.fetch(id: id) { c.resume(returning: $0) }
                    }
                })
            }
            return results
        }
        #expect((try? results[0].get()) == "item 2")
        #expect(throws: SafeContinuationError.leaked) { try results[1].get() }
        #expect(misuses.map(\.kind) == [.leaked], "exactly the failed fetch is reported")
    }
}
