import ConcurrencyToolkit
import Foundation
import Testing
@testable import FileSqueezerCore
import TestSupport

/// How stage 3 cuts a run into units: a unit per segment of a split file,
/// and batches of one-segment files so that one lane job carries many.
@Suite("Work units")
struct WorkUnitTests {
    let helpers = SegmentedFileTests()
    static let segment = SegmentedFileTests.segment

    /// Plans of the given sizes; nothing is opened, so no file needs to exist.
    func plans(_ sizes: [Int64]) -> [FilePlan] {
        sizes.enumerated().map { index, size in
            FilePlan(source: "/none/\(index)", relativePath: "\(index)", destination: "/none/\(index).gz", size: size)
        }
    }

    enum Shape: Equatable {
        case segment(file: Int, segment: Int)
        case batch([Int])
    }

    func shapes(_ sizes: [Int64]) -> (shapes: [Shape], numbers: [Int]) {
        let plans = plans(sizes)
        let units = WorkUnits(
            plans: plans, order: Array(plans.indices), compressor: helpers.compressor(TemporaryFiles()),
            events: RecordedEvents(), window: SegmentWindow(limit: 4), finishes: FinishQueue())
        let all = Array(units)
        let shapes = all.map { unit -> Shape in
            switch unit.work {
            case .segment(let file, let segment): .segment(file: file.index, segment: segment)
            case .batch(let files, _): .batch(files)
            }
        }
        return (shapes, all.map(\.number))
    }

    @Test("a split file gives a unit per segment; one-segment files between and after it are batched")
    func unitsInOrder() {
        let segment = Int64(Self.segment)
        let (shapes, numbers) = shapes([100, 200, 3 * segment, 0, 50])
        #expect(shapes == [
            .batch([0, 1]),
            .segment(file: 2, segment: 0), .segment(file: 2, segment: 1), .segment(file: 2, segment: 2),
            .batch([3, 4]),
        ])
        #expect(numbers == Array(0..<5), "every unit takes the next window slot")
    }

    @Test("a batch stops at its file count and at its byte budget, and always takes at least one file")
    func batchLimits() {
        let many = [Int64](repeating: 10, count: ParallelStrategy.batchFiles + 1)
        #expect(shapes(many).shapes.map { if case .batch(let files) = $0 { files.count } else { 0 } }
            == [ParallelStrategy.batchFiles, 1])

        // With the real 1 MiB segments, a file just under a segment fills a
        // batch alone, and the budget splits smaller ones.
        let compressor = FileCompressor(level: 6, force: false, temporaryFiles: TemporaryFiles())
        let budget = ParallelStrategy.batchBytes
        let plans = plans([budget - 10, 20, Int64(compressor.segmentSize) - 1, budget / 2, budget / 2, 1])
        let units = WorkUnits(
            plans: plans, order: Array(plans.indices), compressor: compressor, events: RecordedEvents(),
            window: SegmentWindow(limit: 4), finishes: FinishQueue())
        let batches = units.map { unit -> [Int] in
            if case .batch(let files, _) = unit.work { files } else { [] }
        }
        #expect(batches == [[0], [1], [2], [3, 4], [5]])
    }

    @Test("two hundred small files and a split one: every file is compressed, in a handful of lane jobs, not one per file")
    func smallFilesShareLaneJobs() async throws {
        let scratch = try Scratch()
        var plans: [FilePlan] = []
        var originals: [String: Data] = [:]
        for number in 0..<200 {
            let name = String(format: "small-%03d.txt", number)
            let data = Sample.text(50 + number, seed: UInt64(number))
            try scratch.file(name, data)
            originals[name] = data
            plans.append(try helpers.plan(scratch, name))
        }
        let big = Sample.text(3 * Self.segment, seed: 999)
        try scratch.file("big.txt", big)
        originals["big.txt"] = big
        plans.append(try helpers.plan(scratch, "big.txt"))

        let files = TemporaryFiles()
        let events = RecordedEvents()
        let lanes = BlockingExecutor(width: 2, label: "squeeze-test")
        let window = await ParallelStrategy(compressor: helpers.compressor(files), jobs: 2, placement: .lanes, lanes: lanes)
            .run(plans, order: Array(plans.indices.reversed()), events: events)
        await lanes.shutdown()

        for index in plans.indices {
            #expect(events.outcomes(of: index).map(\.status) == [.compressed], "\(plans[index].relativePath)")
        }
        // 3 segments of big.txt, then ceil(200 / batchFiles) batches.
        let expected = 3 + (200 + ParallelStrategy.batchFiles - 1) / ParallelStrategy.batchFiles
        #expect(lanes.metrics.completed == expected, "lane jobs: \(lanes.metrics)")
        #expect(window.peakOutputs <= ParallelStrategy.windowSize(jobs: 2))
        #expect(files.current.isEmpty)
        for name in ["small-000.txt", "small-137.txt", "small-199.txt", "big.txt"] {
            try helpers.expectValidGzip(scratch, name, equals: originals[name]!)
        }
    }

    @Test("a batch whose job never runs (cancelled first) reports each of its files cancelled once")
    func cancelledBatch() async throws {
        let scratch = try Scratch()
        var planned: [FilePlan] = []
        for number in 0..<10 {
            try scratch.file("f\(number).txt", Sample.text(100, seed: UInt64(number)))
            planned.append(try helpers.plan(scratch, "f\(number).txt"))
        }
        // A constant: the task below takes it (a var would be sent and used after).
        let plans = planned
        let files = TemporaryFiles()
        let events = RecordedEvents()
        let run = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await ParallelStrategy(compressor: helpers.compressor(files), jobs: 2, placement: .lanes)
                .run(plans, order: Array(plans.indices), events: events)
        }
        await run.value
        for index in plans.indices {
            #expect(events.outcomes(of: index).map(\.status) == [.cancelled])
        }
        #expect(files.current.isEmpty)
        #expect(try scratch.listing().allSatisfy { !$0.hasSuffix(".gz") })
    }
}
