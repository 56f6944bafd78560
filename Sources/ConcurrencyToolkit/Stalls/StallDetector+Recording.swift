extension StallDetector {
    /// Runs `operation` with the detector running at `threshold` and every
    /// stall report made meanwhile sent to `report`: the testing module's
    /// recorders are built on it.
    ///
    /// Before `operation` starts, it waits until the probes run (so a stall
    /// at its very beginning is seen; up to 2 s for the main actor, which a
    /// process might never drain); after it returns, it waits two looks of
    /// the watchdog, so a stall that ended just before is reported as ended.
    package static func recording<Result>(
        threshold: Duration, report: @escaping @Sendable (ConcurrencyStall) -> Void,
        isolation: isolated (any Actor)? = #isolation,
        operation: () async throws -> Result
    ) async rethrows -> Result {
        let threshold = DetectorThreshold.checked(threshold, floor: minimumThreshold, call: "withConcurrencyStallsRecorded")
        let interval = min(defaultProbeInterval, threshold / 8)
        let demand = StallDemand.shared.addDemand(.init(threshold: threshold, interval: interval))
        defer { StallDemand.shared.removeDemand(demand) }
        return try await ConcurrencyStallHandler.withScope(
            .custom(report), minimumDuration: threshold, isolation: isolation
        ) {
            await StallDemand.shared.watchdog?.waitUntilProbesRun()
            let result = try await operation()
            // A stall the operation caused ends once it returns; its ended
            // report comes at the watchdog's next look, after the stacks are
            // symbolicated (seconds, the first time, on a loaded machine).
            await StallDemand.shared.watchdog?.waitUntilNoStallLasts(within: .seconds(30))
            await StallDemand.shared.watchdog?.waitForLooks(2)
            // A stall still lasting is reported with its length so far.
            for stall in StallDemand.shared.watchdog?.ongoingStalls() ?? [] where stall.duration >= threshold {
                report(stall)
            }
            return result
        }
    }
}
