import ConcurrencyToolkit

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What an idle executor costs: 10,000 back-to-back jobs (so its lanes have
/// learned to spin), then the whole process's CPU time (`getrusage`, user +
/// system) over `seconds` of doing nothing, as a share of one core. Nothing
/// else runs in the process meanwhile, so this bounds the lanes' spinning
/// after their last job.
func measureIdleExecutor(seconds: Int) async throws -> Double {
    let executor = BlockingExecutor(width: 2, label: "idle")
    var sum = 0
    for i in 0..<10_000 { sum &+= try await executor.run { i } }
    blackHole(sum)
    let before = processCPUMicroseconds()
    let start = ContinuousClock.now
    try await Task.sleep(for: .seconds(seconds))
    let wall = (ContinuousClock.now - start).nanoseconds / 1_000
    let used = processCPUMicroseconds() - before
    return Double(used) / Double(wall) * 100
}

func processCPUMicroseconds() -> Int64 {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    let user = Int64(usage.ru_utime.tv_sec) * 1_000_000 + Int64(usage.ru_utime.tv_usec)
    let system = Int64(usage.ru_stime.tv_sec) * 1_000_000 + Int64(usage.ru_stime.tv_usec)
    return user + system
}
