import Benchmark
import ConcurrencyToolkit
import Dispatch
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A trivial blocking job's round trip, and 1,000 jobs of 10 ms at several
/// widths, against NIOThreadPool, a Dispatch global queue and `Task.detached`.
func blockingBenchmarks() {
    let round = "Blocking round trip"
    let executor = BlockingExecutor(width: 2, label: "bench")
    let nioPool = NIOThreadPool(numberOfThreads: 2)
    nioPool.start()

    Benchmark("\(round): BlockingExecutor.run", configuration: microConfiguration()) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await executor.run { 1 })
        }
    }
    Benchmark("\(round): NIOThreadPool.runIfActive (peer)", configuration: microConfiguration()) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try await nioPool.runIfActive { 1 })
        }
    }
    Benchmark(
        "\(round): DispatchQueue.global().async + CheckedContinuation (peer)", configuration: microConfiguration()
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let value: Int = await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: 1) }
            }
            blackHole(value)
        }
    }
    Benchmark("\(round): Task.detached (peer)", configuration: microConfiguration()) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(await Task.detached { 1 }.value)
        }
    }

    // 1,000 jobs that each block their thread for 10 ms: the ideal time is
    // 10 s / width. Task.detached and the global queue have no width to set.
    let jobs = 1_000
    let throughput = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident, .threads], warmupIterations: 0,
        maxDuration: .seconds(10), maxIterations: 3)
    for width in [2, 16, 64] {
        Benchmark("1,000 blocking 10 ms jobs, width \(width): BlockingExecutor", configuration: throughput) { _ in
            let executor = BlockingExecutor(width: width, label: "bench-\(width)")
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<jobs { group.addTask { try await executor.run { blockTenMilliseconds() } } }
                try await group.waitForAll()
            }
            await executor.shutdown()
        }
        Benchmark("1,000 blocking 10 ms jobs, width \(width): NIOThreadPool (peer)", configuration: throughput) { _ in
            let pool = NIOThreadPool(numberOfThreads: width)
            pool.start()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<jobs { group.addTask { try await pool.runIfActive { blockTenMilliseconds() } } }
                try await group.waitForAll()
            }
            try await pool.shutdownGracefully()
        }
    }
    Benchmark("1,000 blocking 10 ms jobs: DispatchQueue.global() (peer)", configuration: throughput) { _ in
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<jobs {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        DispatchQueue.global().async {
                            blockTenMilliseconds()
                            continuation.resume()
                        }
                    }
                }
            }
        }
    }
    Benchmark("1,000 blocking 10 ms jobs: Task.detached (peer)", configuration: throughput) { _ in
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<jobs { group.addTask { await Task.detached { blockTenMilliseconds() }.value } }
        }
    }
}

/// Blocks the calling thread for 10 ms, as a synchronous file or database call would.
private func blockTenMilliseconds() {
    _ = usleep(10_000)
}
