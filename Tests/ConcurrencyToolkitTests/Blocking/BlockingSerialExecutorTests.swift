@testable import ConcurrencyToolkit
import Dispatch
import Foundation
import Testing
import TestSupport

/// An actor that owns a real file descriptor and runs every method on its
/// own serial queue.
actor JournalFile {
    let executor: BlockingSerialExecutor
    private let fd: Int32
    private(set) var linesWritten = 0
    private(set) var callsOffQueue = 0

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    init(path: String) {
        executor = BlockingSerialExecutor(label: "journal")
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o644)
    }

    var isOpen: Bool { fd >= 0 }

    /// Blocking write(2) calls: fine here, they hold the journal's own thread.
    func append(_ line: String) {
        if executor.isIsolatingCurrentContext() != true { callsOffQueue += 1 }
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard written > 0 else { return }
            offset += written
        }
        fsync(fd)
        linesWritten += 1
    }

    func close() { _ = Foundation.close(fd) }
}

@Suite struct BlockingSerialExecutorTests {
    @Test func anActorOwningAFileRunsEveryMethodOnItsQueue() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID()).log").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let journal = JournalFile(path: path)
        #expect(await journal.isOpen)

        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask {
                    for line in 0..<50 { await journal.append("writer \(writer) line \(line)") }
                }
            }
        }
        #expect(await journal.linesWritten == 400)
        #expect(await journal.callsOffQueue == 0)
        await journal.close()

        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 400)
        // Serial: no two writes interleaved, every line arrived whole.
        #expect(lines.allSatisfy { $0.hasPrefix("writer ") && $0.contains(" line ") })
        for writer in 0..<8 {
            let own = lines.filter { $0.hasPrefix("writer \(writer) ") }.map(String.init)
            #expect(own == (0..<50).map { "writer \(writer) line \($0)" })
        }
    }

    @Test func assumeIsolatedWorksFromCodeOnTheExecutorsQueue() async {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID()).log").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let journal = JournalFile(path: path)
        await journal.append("first")
        // A callback delivered on the queue (as a Dispatch source handler would be).
        let count = await withCheckedContinuation { continuation in
            journal.executor.queue.async {
                continuation.resume(returning: journal.assumeIsolated { $0.linesWritten })
            }
        }
        #expect(count == 1)
        let offQueue = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: journal.executor.isIsolatingCurrentContext()) }
        }
        #expect(offQueue == false)
        await journal.close()
    }

    #if os(macOS) || os(Linux)  // exit tests: Apple's other platforms have none
    @Test func assumeIsolatedOffTheQueueStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let journal = JournalFile(path: "/dev/null")
            DispatchQueue.global().sync {
                _ = journal.assumeIsolated { $0.linesWritten }
            }
        }
    }
    #endif
}
