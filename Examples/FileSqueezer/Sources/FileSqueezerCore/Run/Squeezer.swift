import ConcurrencyToolkit

/// Runs one squeeze: compresses every planned file with the chosen
/// ``Strategy``, keeps ``CompressionState`` and the display current, and
/// returns the summary.
///
/// ```swift
/// let discovery = try await discoverFiles(in: "logs", recursive: false, output: nil)
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
final class Squeezer {
    let state = CompressionState()
    let strategy: Strategy
    let jobs: Int
    let compressor: FileCompressor
    let placement: DeflatePlacement
    private let display: TerminalDisplay
    /// Whether ``RunReport/files`` lists every file (the default) or only
    /// the failed ones. A run over very many files that nobody will list
    /// (the command line without `--json`) saves their outcomes' memory.
    ///
    /// ```swift
    /// squeezer.keepsEveryOutcome = false      // report.files: failures only
    /// ```
    var keepsEveryOutcome = true

    init(
        strategy: Strategy, jobs: Int, compressor: FileCompressor,
        placement: DeflatePlacement = .lanes, display: TerminalDisplay
    ) {
        self.strategy = strategy
        self.jobs = max(1, jobs)
        self.compressor = compressor
        self.placement = placement
        self.display = display
    }

    func run(_ discovery: Discovery) async -> RunReport {
        let plans = discovery.plans
        state.start(plans)
        let log = SqueezeLog(fileCount: plans.count, keepsEveryOutcome: keepsEveryOutcome)
        let heartbeat = MainActorHeartbeat()
        heartbeat.start()
        let start = ContinuousClock.now
        let meter = WorkMeter(cores: System.processorCount, start: start)
        let channels = RunChannels(fileCount: plans.count, state: state, display: display, log: log, meter: meter)

        // The stages differ only in where compressWholeFile runs (stage 3
        // also in the unit of work).
        switch strategy {
        case .mainActor: await compressOnMainActor(plans, channels)
        case .actor: await compressOnOneActor(plans, channels)
        case .concurrent:
            await ConcurrentStrategy.run(plans, order: largestFirst(plans), compressor: compressor, channels: channels)
        case .parallel: await compressInParallel(plans, channels)
        }

        let wall = ContinuousClock.now - start
        await channels.finish()
        let stall = heartbeat.stop()
        display.finish(state)
        let (totals, outcomes) = await log.takeAll()
        return makeReport(
            totals, outcomes, plans: plans, notes: discovery.notes, wall: wall,
            parallelism: meter.parallelism(at: start + wall), stall: stall)
    }

    /// Stage 1: compress right here. The main actor is busy for each whole
    /// file; the display and the heartbeat get to run only between files.
    private func compressOnMainActor(_ plans: [FilePlan], _ channels: RunChannels) async {
        for (index, plan) in plans.enumerated() {
            if Task.isCancelled { break }
            _ = compressWholeFile(index, plan, with: compressor, channels: channels) { Task.isCancelled }
            await Task.yield()
        }
    }

    /// Stage 2: every file goes through one actor, one at a time.
    private func compressOnOneActor(_ plans: [FilePlan], _ channels: RunChannels) async {
        let single = ActorStrategy()
        let compressor = compressor
        await largestFirst(plans).concurrentForEach(maxConcurrency: jobs) { index in
            _ = await single.compress(index, plans[index], with: compressor, channels: channels)
        }
    }

    /// Stage 3: compress outside every actor, `jobs` segments at a time
    /// (files larger than the segment size are split, as pigz does); the
    /// main actor and the log only receive throttled, batched reports.
    private func compressInParallel(_ plans: [FilePlan], _ channels: RunChannels) async {
        await ParallelStrategy(compressor: compressor, jobs: jobs, placement: placement)
            .run(plans, order: largeFirstThenWalkOrder(plans), events: channels)
    }

    /// Stage 3's order: files of at least a batch's bytes biggest first,
    /// so none runs alone at the end; then the smaller ones in walk order,
    /// where a folder's files follow each other and its descriptor is
    /// opened once for them all (``FolderWindow``), not once per file.
    private func largeFirstThenWalkOrder(_ plans: [FilePlan]) -> [Int] {
        let large = plans.indices.filter { plans[$0].size >= ParallelStrategy.batchBytes }
        let small = plans.indices.filter { plans[$0].size < ParallelStrategy.batchBytes }
        return large.sorted { plans[$0].size != plans[$1].size ? plans[$0].size > plans[$1].size : $0 < $1 } + small
    }

    /// Plan indices, biggest file first. Stage 2 compresses whole files, so
    /// a big one started last would run alone; in stage 3 the run then ends
    /// on small files, the shortest units of work.
    private func largestFirst(_ plans: [FilePlan]) -> [Int] {
        plans.indices.sorted { plans[$0].size != plans[$1].size ? plans[$0].size > plans[$1].size : $0 < $1 }
    }

    private func makeReport(
        _ totals: SqueezeLog.Totals, _ outcomes: [FileOutcome], plans: [FilePlan], notes: [String],
        wall: Duration, parallelism: Double, stall: Duration
    ) -> RunReport {
        let (compressed, failed, bytesIn, bytesOut) = (totals.compressed, totals.failed, totals.bytesIn, totals.bytesOut)
        return RunReport(
            strategy: strategy, placement: placement, jobs: jobs, level: compressor.level,
            compressed: compressed,
            failed: failed,
            notFinished: plans.count - (totals.recorded - totals.cancelled),
            bytesIn: bytesIn, bytesOut: bytesOut,
            ratio: bytesIn == 0 ? 1 : Double(bytesOut) / Double(bytesIn),
            wallSeconds: wall.seconds,
            parallelism: parallelism,
            longestMainActorStallMilliseconds: stall.seconds * 1000,
            interrupted: Task.isCancelled, notes: notes, files: outcomes)
    }
}
