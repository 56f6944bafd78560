#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// What the scheduler did to this process (SCHEDSTAT=1): counted, not timed,
// so it holds on a loaded machine. Context switches from getrusage (every
// thread the process had, ended ones too); from /proc/self/task/*/schedstat,
// per live thread, the time on a core, the time spent runnable but waiting
// for one (the run delay), and how many times it got a core. A thread that
// spins while a core is taken shows as run delay: it was ready and did not run.

/// Prints one line to standard error: the counts, or what could be read of them.
func printSchedulerCounts() {
    var usage = rusage()
    #if os(Linux)
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    let cpu = Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3
    var line = "scheduler: CPU \(Int(cpu)) ms; context switches voluntary \(usage.ru_nvcsw), involuntary \(usage.ru_nivcsw)"
    #if os(Linux)
    var onCore: UInt64 = 0, waiting: UInt64 = 0, slices: UInt64 = 0, threads = 0
    if let folder = opendir("/proc/self/task") {
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name.first?.isNumber == true, let fields = schedstat(of: name) else { continue }
            onCore += fields[0]
            waiting += fields[1]
            slices += fields[2]
            threads += 1
        }
    }
    line += "; live threads \(threads): on a core \(onCore / 1_000_000) ms, run delay \(waiting / 1_000_000) ms, \(slices) slices"
    #endif
    var text = line + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

#if os(Linux)
/// The three numbers of /proc/self/task/TID/schedstat (ns on a core, ns waiting, slices).
private func schedstat(of thread: String) -> [UInt64]? {
    guard let file = fopen("/proc/self/task/\(thread)/schedstat", "r") else { return nil }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 128)
    guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
    let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let fields = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { UInt64($0) }
    return fields.count >= 3 ? Array(fields.prefix(3)) : nil
}
#endif
