#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The processors this process may run on: the default width for
/// ``Swift/Sequence/concurrentMap(maxConcurrency:fileID:line:_:)``, and
/// whether a ``BlockingExecutor`` spins at all (never on one). On Linux it
/// counts the calling thread's CPU affinity mask, as Go's runtime does, so
/// `taskset -c 0` and a container's cpuset count as one core; elsewhere,
/// and if the mask cannot be read, the number of online processors.
/// Foundation-free, so the library keeps linking nothing but the standard
/// library and Synchronization.
@usableFromInline
var activeProcessorCount: Int {
    #if os(Linux) && (canImport(Glibc) || canImport(Musl))
    if let allowed = affinityProcessorCount() { return allowed }
    #endif
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    #else
    return 1
    #endif
}

#if os(Linux) && (canImport(Glibc) || canImport(Musl))
/// `sched_getaffinity(2)`, looked up at run time: the C library declares it
/// only under `_GNU_SOURCE`, which Swift's module for it does not define.
private typealias AffinityFunction = @convention(c) (pid_t, Int, UnsafeMutableRawPointer) -> Int32
private let getAffinity: AffinityFunction? = dlsym(nil, "sched_getaffinity").map {
    unsafeBitCast($0, to: AffinityFunction.self)
}

/// How many CPUs the calling thread's affinity mask allows (up to 1,024), or nil.
private func affinityProcessorCount() -> Int? {
    guard let getAffinity else { return nil }
    var mask = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0),
                UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
    let count = withUnsafeMutableBytes(of: &mask) { bytes -> Int? in
        guard getAffinity(0, bytes.count, bytes.baseAddress!) == 0 else { return nil }
        return bytes.reduce(0) { $0 + $1.nonzeroBitCount }
    }
    guard let count, count > 0 else { return nil }
    return count
}
#endif
