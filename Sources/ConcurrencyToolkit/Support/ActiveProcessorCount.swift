#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The default width for ``Swift/Sequence/concurrentMap(maxConcurrency:fileID:line:_:)``:
/// the number of online processors (Foundation-free, so the library keeps
/// linking nothing but the standard library and Synchronization).
@usableFromInline
var activeProcessorCount: Int {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
    return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    #else
    return 1
    #endif
}
