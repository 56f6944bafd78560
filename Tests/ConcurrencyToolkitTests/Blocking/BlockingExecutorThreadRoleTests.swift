import Foundation
import Testing

@testable import ConcurrencyToolkit
import TestSupport

/// Real `BlockingExecutor` lanes, recorded: a thread Dispatch moved between
/// two executors' lanes is drawn in each lane's row, and main-actor work
/// stays in the `main` row (Diagnostics/ThreadRoleTests.swift's suite).
extension ThreadRoleTests {
    /// A real recording. Dispatch picks the OS thread of every lane hop from
    /// its idle workers, so alternating two executors soon runs both on one
    /// thread; the test keeps going until it has (or gives up). An extra
    /// alpha job every other round breaks the parity that could otherwise
    /// keep a round-robin of an even number of idle workers apart.
    /// Only public API and the exported SVG and summary are read.
    @Test func aThreadThatServedTwoLanesIsDrawnInEachLanesRow() async throws {
        let alpha = BlockingExecutor(width: 1, label: "alpha")
        let beta = BlockingExecutor(width: 1, label: "beta")
        let (result, trace) = try await withTraceRecording { () async throws -> (shared: UInt64?, jobs: [String: Int]) in
            var seen: [String: Set<UInt64>] = [:]
            var jobs: [String: Int] = [:]
            for round in 1...300 {
                let schedule = round % 2 == 0 ? [("alpha", alpha), ("beta", beta)] : [("alpha", alpha), ("beta", beta), ("alpha", alpha)]
                for (name, executor) in schedule {
                    jobs[name, default: 0] += 1
                    let thread = try await executor.run { () -> UInt64 in
                        letTheWaiterSuspendUnderThreadSanitizer()
                        span("\(name) work") { blockThread(milliseconds: 2) }
                        return CurrentThread.id
                    }
                    seen[name, default: []].insert(thread)
                    // Let the lane's thread go back to Dispatch's idle workers first.
                    try await Task.sleep(for: .milliseconds(1))
                }
                if let both = seen["alpha", default: []].intersection(seen["beta", default: []]).first {
                    return (both, jobs)
                }
            }
            return (nil, jobs)
        }
        await alpha.shutdown()
        await beta.shutdown()
        let shared = try #require(result.shared, "Dispatch never ran both executors' lanes on one thread")

        let reader = try SVGReader.read(trace.svgTimeline())
        let alphaRow = try #require(reader.rows.first { $0.name == "alpha lane 0" })
        let betaRow = try #require(reader.rows.first { $0.name == "beta lane 0" })
        #expect(alphaRow.threads.contains("\(shared)") && betaRow.threads.contains("\(shared)"))
        // Every job and span is in its own lane's row, whichever thread ran it.
        for (row, own, other) in [(alphaRow, "alpha", "beta"), (betaRow, "beta", "alpha")] {
            let jobs = result.jobs[own, default: 0]
            #expect(row.bars.filter { $0.contains("executor: \(own)") }.count == jobs)
            #expect(row.bars.filter { $0.hasPrefix("\(own) work") }.count == jobs)
            #expect(!row.bars.contains { $0.contains("executor: \(other)") || $0.hasPrefix("\(other) work") })
        }
        // The summary counts each lane's own jobs: at least 2 ms each.
        for (name, executor) in [("alpha lane 0", "alpha"), ("beta lane 0", "beta")] {
            let line = try #require(trace.summary().split(separator: "\n").first { $0.hasPrefix("  \(name) ") })
            let busy = try #require(Self.milliseconds(line.dropFirst(2 + name.count)))
            let jobs = Double(result.jobs[executor, default: 0])
            #expect(busy >= 2 * jobs, "\(line)")
            #expect(busy < 4 * jobs + 1_000, "\(line)")
        }
    }

    /// A span on the main actor is in the `main` row, one in a job in its
    /// lane's row, and each event says whether it was emitted on main.
    @Test func mainActorWorkIsInTheMainRowAndJobsInTheLaneRow() async throws {
        let executor = BlockingExecutor(width: 1, label: "roles")
        let (_, trace) = try await withTraceRecording {
            await MainActor.run { span("on main") { marker("main mark") } }
            try await executor.run {
                letTheWaiterSuspendUnderThreadSanitizer()
                span("on lane") {}
            }
        }
        await executor.shutdown()
        let onMain = trace.events { $0 == .spanStarted(name: "on main") }
        let onLane = trace.events { $0 == .spanStarted(name: "on lane") }
        #expect(onMain.map(\.onMain) == [true])
        #expect(onLane.map(\.onMain) == [false])
        let timeline = TraceTimeline(trace)
        let rows = Dictionary(timeline.rows.map { ($0.name, $0.role) }, uniquingKeysWith: { first, _ in first })
        #expect(rows["main"] == .main)
        #expect(rows["roles lane 0"] == .lane(executor: "roles", index: 0))
        #expect(timeline.intervals.first { $0.name == "on main" }?.role == .main)
        #expect(timeline.intervals.first { $0.name == "on lane" }?.role == .lane(executor: "roles", index: 0))
        #expect(timeline.instants.first { $0.name == "main mark" }?.role == .main)
    }
}
