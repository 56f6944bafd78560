/// Runs one squeeze: compresses every planned file with the chosen
/// ``Strategy``, keeps ``CompressionState`` and the display current, and
/// returns the summary.
///
/// ```swift
/// let discovery = try discoverFiles(in: "logs", recursive: false, output: nil)
/// let squeezer = Squeezer(strategy: .parallel, jobs: 2,
///                         compressor: FileCompressor(level: 6, force: false, temporaryFiles: TemporaryFiles()),
///                         display: TerminalDisplay(mode: .lines))
/// let report = await squeezer.run(discovery)
/// ```
///
/// Cancelling the calling task stops every file at its next chunk; their
/// temporary files are removed, files not started are counted in
/// ``RunReport/notFinished``, and ``RunReport/interrupted`` is `true`.
@MainActor
public final class Squeezer {
    public let state = CompressionState()
    public let strategy: Strategy
    public let jobs: Int
    public let compressor: FileCompressor
    private let display: TerminalDisplay
    private let log = SqueezeLog()
    private let feed = ProgressFeed()

    public init(strategy: Strategy, jobs: Int, compressor: FileCompressor, display: TerminalDisplay) {
        self.strategy = strategy
        self.jobs = max(1, jobs)
        self.compressor = compressor
        self.display = display
    }

    public func run(_ discovery: Discovery) async -> RunReport {
        let plans = discovery.plans
        state.start(plans)
        let heartbeat = MainActorHeartbeat()
        heartbeat.start()
        let pump = startProgressPump()
        let start = ContinuousClock.now

        switch strategy {
        case .mainActor: await compressOnMainActor(plans)
        case .actor: await compressOnOneActor(plans)
        case .parallel: await compressInParallel(plans)
        }

        let wall = ContinuousClock.now - start
        let stall = heartbeat.stop()
        pump.cancel()
        display.finish(state)
        return makeReport(await log.all(), plans: plans, notes: discovery.notes, wall: wall, stall: stall)
    }

    /// Stage 1: compress right here. The main actor is busy for each whole
    /// file; the display and the heartbeat get to run only between files.
    private func compressOnMainActor(_ plans: [FilePlan]) async {
        for (index, plan) in plans.enumerated() {
            if Task.isCancelled { break }
            let outcome = compressOne(plan, with: compressor) { bytes in
                state.update(bytesRead: [(key: index, value: bytes)])
            }
            await finished(index, outcome)
        }
    }

    /// Stage 2: every file goes through one actor, one at a time.
    private func compressOnOneActor(_ plans: [FilePlan]) async {
        let single = SingleCompressor()
        let compressor = compressor, feed = feed
        await forEachBounded(plans) { index, plan in
            let outcome = await single.compress(index, plan, with: compressor, feed: feed)
            await self.finished(index, outcome)
        }
    }

    /// Stage 3: compress outside every actor, `jobs` files at a time; hop to
    /// the log and the main actor only when a file is done.
    private func compressInParallel(_ plans: [FilePlan]) async {
        let compressor = compressor, feed = feed
        await forEachBounded(plans) { index, plan in
            let outcome = compressOne(plan, with: compressor) { feed.report(file: index, bytesRead: $0) }
            await self.finished(index, outcome)
        }
    }

    /// Runs `body` for every plan, at most `jobs` at once, off the main actor.
    /// After cancellation no new file starts.
    private func forEachBounded(
        _ plans: [FilePlan], _ body: @escaping @Sendable (Int, FilePlan) async -> Void
    ) async {
        let order = largestFirst(plans)
        await withTaskGroup(of: Void.self) { group in
            var next = 0
            func startNext() {
                guard next < order.count, !Task.isCancelled else { return }
                let index = order[next], plan = plans[index]
                next += 1
                group.addTask { await body(index, plan) }
            }
            for _ in 0..<jobs { startNext() }
            while await group.next() != nil { startNext() }
        }
    }

    /// Plan indices, biggest file first: a file is never split across jobs,
    /// so starting the big ones early keeps every job busy until the end
    /// instead of leaving one big file running alone.
    private func largestFirst(_ plans: [FilePlan]) -> [Int] {
        plans.indices.sorted { plans[$0].size != plans[$1].size ? plans[$0].size > plans[$1].size : $0 < $1 }
    }

    private func finished(_ index: Int, _ outcome: FileOutcome) async {
        feed.remove(file: index)
        state.finish(index, outcome)
        display.fileFinished(outcome, state: state)
        await log.record([(index: index, outcome: outcome)])
    }

    /// Moves workers' progress onto the main actor about 30 times a second.
    private func startProgressPump() -> Task<Void, Never> {
        let feed = feed
        return Task { @MainActor [state, display] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(33))
                let latest = feed.drain()
                if !latest.isEmpty { state.update(bytesRead: latest.map { (key: $0.key, value: $0.value) }) }
                display.refresh(state)
            }
        }
    }

    private func makeReport(
        _ outcomes: [FileOutcome], plans: [FilePlan], notes: [String], wall: Duration, stall: Duration
    ) -> RunReport {
        let compressed = outcomes.filter { $0.status == .compressed }
        let bytesIn = compressed.reduce(Int64(0)) { $0 + $1.bytesIn }
        let bytesOut = compressed.reduce(Int64(0)) { $0 + $1.bytesOut }
        let busy = outcomes.reduce(0.0) { $0 + $1.seconds }
        return RunReport(
            strategy: strategy, jobs: jobs, level: compressor.level,
            compressed: compressed.count,
            failed: outcomes.count { $0.status == .failed },
            notFinished: plans.count - outcomes.count { $0.status != .cancelled },
            bytesIn: bytesIn, bytesOut: bytesOut,
            ratio: bytesIn == 0 ? 1 : Double(bytesOut) / Double(bytesIn),
            wallSeconds: wall.seconds,
            parallelism: wall.seconds > 0 ? busy / wall.seconds : 0,
            longestMainActorStallMilliseconds: stall.seconds * 1000,
            interrupted: Task.isCancelled, notes: notes, files: outcomes)
    }
}
