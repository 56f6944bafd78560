#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How many jobs a run really gets: `--jobs`, capped at 4 per core and at
/// what the open-file limit (`ulimit -n`) allows, with one note saying why.
///
/// ```swift
/// let limit = JobLimit.decide(requested: 1024, strategy: .parallel, cores: 2)
/// // limit.jobs == 8, limit.notes == ["using 8 jobs instead of --jobs 1024: more than 4 per core (2 cores)"]
/// ```
///
/// - **Cores.** Deflate is CPU-bound: beyond a few jobs per core, more jobs
///   only add threads (one lane each), memory (two compressed segments each)
///   and work to cancel on Ctrl-C. 4 per core still lets files on slow
///   storage overlap their reads, and `--deflate-on pool` oversubscribe.
/// - **Descriptors.** In the parallel strategy a file holds
///   ``descriptorsPerFile`` descriptors from its first segment to its end,
///   and up to ``filesOpen(jobs:)`` files are open at once. Running out
///   fails files with `EMFILE`, and crashes libdispatch when it then cannot
///   make its own descriptors (epoll, eventfd, timers: ``reserve``). The soft
///   limit is raised toward the hard one first; only if that is not enough
///   are jobs reduced (to 1 at least: then the limit is too low to promise
///   anything, and the note says so). The other strategies compress one file
///   at a time.
struct JobLimit: Equatable {
    var jobs: Int
    var notes: [String]

    static let perCore = 4
    /// The original and the temporary output, the original's folder and
    /// the output's (held while the file is in flight, ``Folder``), and one
    /// to spare: a folder closed meanwhile is reopened relative to its
    /// parent, held for that moment. The `/proc/self/fd` link and a
    /// `--force` rename take none.
    static let descriptorsPerFile = 5
    /// Descriptors kept free for libdispatch (epoll, eventfd, three timer
    /// clocks, made when first needed) and `--trace`/`--timeline` output,
    /// and the folders kept open after use (``FolderWindow/keptOpen``).
    static let reserve = 8 + FolderWindow.keptOpen

    /// Files open at once in the parallel strategy with `jobs` jobs: one per
    /// segment in the run's window (a file opens at its first segment), and
    /// as many again waiting for their ending.
    static func filesOpen(jobs: Int) -> Int {
        ParallelStrategy.windowSize(jobs: jobs) + jobs
    }

    static func descriptorsNeeded(jobs: Int) -> Int {
        filesOpen(jobs: jobs) * descriptorsPerFile + reserve
    }

    /// Decides the jobs for this process (may raise its soft `RLIMIT_NOFILE`).
    /// Folders take no descriptor each: the run's folders are a bounded
    /// window (``FolderWindow``), counted in ``reserve`` and per file, so
    /// neither the number of folders nor empty ones lower the jobs.
    static func decide(requested: Int, strategy: Strategy, cores: Int) -> JobLimit {
        var jobs = requested
        var reasons: [String] = []
        let cap = max(1, cores) * perCore
        if jobs > cap {
            jobs = cap
            reasons.append("more than \(perCore) per core (\(cores) cores)")
        }
        var tooFewDescriptors = false
        if strategy == .parallel {
            // The window's folders now are in `reserve` already.
            let open = max(0, openDescriptors() - FolderWindow.shared.openCount)
            let available = max(0, raiseOpenFileLimit(toward: descriptorsNeeded(jobs: jobs) + open) - open)
            if descriptorsNeeded(jobs: jobs) > available {
                while jobs > 1, descriptorsNeeded(jobs: jobs) > available { jobs -= 1 }
                tooFewDescriptors = descriptorsNeeded(jobs: jobs) > available
                reasons.append("only \(currentOpenFileLimit()) files may be open at once (ulimit -n)")
            }
        }
        guard !reasons.isEmpty else { return JobLimit(jobs: jobs, notes: []) }
        var note = "using \(Summary.count(jobs, "job")) instead of --jobs \(requested): " + reasons.joined(separator: ", and ")
        if tooFewDescriptors { note += "; even so a file may fail to open: raise it for a clean run" }
        return JobLimit(jobs: jobs, notes: [note])
    }

    /// The soft limit, raised toward `wanted` as far as the hard limit allows.
    /// - Returns: The soft limit now in force.
    private static func raiseOpenFileLimit(toward wanted: Int) -> Int {
        var limits = rlimit()
        guard getrlimit(RLIMIT_NOFILE_CONSTANT, &limits) == 0 else { return Int.max }
        if limits.rlim_cur == unlimited { return Int.max }
        let current = Int(clamping: limits.rlim_cur)
        guard current < wanted else { return current }
        let hard = limits.rlim_max == unlimited ? Int.max : Int(clamping: limits.rlim_max)
        limits.rlim_cur = rlim_t(min(wanted, hard))
        return setrlimit(RLIMIT_NOFILE_CONSTANT, &limits) == 0 ? min(wanted, hard) : current
    }

    private static func currentOpenFileLimit() -> Int {
        var limits = rlimit()
        guard getrlimit(RLIMIT_NOFILE_CONSTANT, &limits) == 0, limits.rlim_cur != unlimited else { return Int.max }
        return Int(clamping: limits.rlim_cur)
    }

    /// Descriptors open in this process now: the entries of
    /// `/proc/self/fd` (one `getdents64`, where probing would cost an
    /// `fcntl` per possible descriptor, up to 65,536 once discovery has
    /// raised the soft limit), or, without `/proc`, what `fcntl(F_GETFD)`
    /// finds probing up to the soft limit.
    private static func openDescriptors() -> Int {
        #if os(Linux)
        if let directory = opendir("/proc/self/fd") {
            defer { closedir(directory) }
            var count = 0
            while let entry = readdir(directory) {
                if entry.pointee.d_name.0 != 0x2E { count += 1 }  // not "." or ".."
            }
            return count - 1  // the listing's own descriptor
        }
        #endif
        let ceiling = min(currentOpenFileLimit(), 65_536)
        var count = 0
        for descriptor in 0..<Int32(ceiling) where fcntl(descriptor, F_GETFD) != -1 { count += 1 }
        return count
    }
}

#if canImport(Glibc)
// Glibc imports RLIMIT_NOFILE as an enum case of __rlimit_resource.
private let RLIMIT_NOFILE_CONSTANT = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
// RLIM_INFINITY is a cast C macro that Swift does not import: it is all ones.
private let unlimited = rlim_t.max
#else
private let unlimited = RLIM_INFINITY
private let RLIMIT_NOFILE_CONSTANT = RLIMIT_NOFILE
#endif
