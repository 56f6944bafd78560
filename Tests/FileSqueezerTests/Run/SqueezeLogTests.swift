import Testing
@testable import FileSqueezerCore
import TestSupport

/// The run's log: totals for every file, and the outcomes the report lists.
@Suite("Squeeze log")
struct SqueezeLogTests {
    static func outcome(_ name: String, _ status: FileOutcome.Status, bytes: Int64) -> FileOutcome {
        FileOutcome(
            path: name, destination: name + ".gz", status: status, reason: status == .failed ? "no" : nil,
            bytesIn: bytes, bytesOut: status == .compressed ? bytes / 2 : 0, seconds: 0.5)
    }

    static let batch: [(index: Int, outcome: FileOutcome)] = [
        (3, outcome("d", .compressed, bytes: 40)), (0, outcome("a", .failed, bytes: 10)),
        (2, outcome("c", .cancelled, bytes: 30)), (1, outcome("b", .compressed, bytes: 20)),
    ]

    @Test("keeping every outcome: all of them, in file order, and the totals")
    func everyOutcome() async {
        let log = SqueezeLog(fileCount: 5, keepsEveryOutcome: true)
        await log.record(Self.batch)
        let (totals, outcomes) = await log.takeAll()
        #expect(outcomes.map(\.path) == ["a", "b", "c", "d"])
        #expect(totals == SqueezeLog.Totals(
            compressed: 2, failed: 1, cancelled: 1, bytesIn: 60, bytesOut: 30, busySeconds: 2, recorded: 4))
    }

    @Test("keeping failures only: the same totals, and only the failed outcomes")
    func failuresOnly() async {
        let log = SqueezeLog(fileCount: 5, keepsEveryOutcome: false)
        await log.record(Array(Self.batch.prefix(2)))
        await log.record(Array(Self.batch.dropFirst(2)))
        let (totals, outcomes) = await log.takeAll()
        #expect(outcomes.map(\.path) == ["a"])
        #expect(totals.compressed == 2 && totals.failed == 1 && totals.recorded == 4 && totals.bytesIn == 60)
    }
}
